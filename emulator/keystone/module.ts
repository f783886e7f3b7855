import type { PlatformModule } from "../platform";
import { keystoneConfig, parseExtraUsers } from "./identity";
import { createKeystoneRoutes, KEYSTONE_API, KEYSTONE_OPERATIONS } from "./routes";
import { KEYSTONE_SCHEMA } from "./tokens";

function positiveSeconds(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value <= 0) throw new Error(`invalid value "${raw}": expected a number of seconds > 0`);
  return value;
}

const text = (raw: string): string => {
  if (raw.trim() === "") throw new Error("expected a non-empty string");
  return raw;
};

/**
 * A minimal Keystone v3 (`/v3/auth/tokens`, password method) on the shared address, so that
 * Senlin clients authenticate as they do against OpenStack. Knows user `admin` / password `admin`
 * in project `admin` of domain `Default` unless its flags say otherwise.
 */
export const keystoneModule: PlatformModule = {
  api: KEYSTONE_API,
  schema: KEYSTONE_SCHEMA,
  operations: KEYSTONE_OPERATIONS,
  flags: [
    { name: "keystone-user", help: "Keystone user name (default admin)", option: "user", parse: text },
    { name: "keystone-password", help: "password of that user (default admin)", option: "password", parse: text },
    { name: "keystone-project", help: "project of that user (default admin)", option: "project", parse: text },
    { name: "keystone-domain", help: "the one Keystone domain (default Default)", option: "domain", parse: text },
    { name: "keystone-region", help: "region of the catalog endpoints (default RegionOne)", option: "region", parse: text },
    { name: "keystone-token-ttl", help: "token lifetime in seconds (default 3600)", option: "tokenTtlSeconds", parse: positiveSeconds },
    {
      name: "keystone-users",
      help: "more users, name:password:project[:admin],... (each its own project)",
      option: "extraUsers",
      parse: parseExtraUsers,
    },
  ],
  validateOptions(options) {
    keystoneConfig(options);
  },
  start(ctx) {
    const routes = createKeystoneRoutes({
      db: ctx.db,
      clock: ctx.clock,
      config: keystoneConfig(ctx.options),
      pipeline: ctx.pipeline,
      baseUrl: ctx.baseUrl,
    });
    return { http: routes };
  },
};
