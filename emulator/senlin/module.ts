import { defineSeed, type PlatformModule } from "../platform";
import { senlinSeed } from "./seed";
import { senlinAdminViews } from "./admin-view";
import type { SenlinEnv } from "./context";
import { createSenlinHttp, SENLIN_API } from "./http";
import { compareMicroversions, DEFAULT_MAX_MICROVERSION, formatMicroversion, MIN_MICROVERSION, type Microversion, parseMicroversion } from "./microversion";
import { SENLIN_OPERATIONS } from "./routes";
import { SenlinStore, SENLIN_SCHEMA } from "./store";

/** The configured maximum microversion; a RangeError names the option and what is allowed. */
function maxVersionOf(options: Readonly<Record<string, unknown>>): Microversion {
  const raw = options.maxMicroversion ?? formatMicroversion(DEFAULT_MAX_MICROVERSION);
  const version = typeof raw === "string" ? parseMicroversion(raw) : undefined;
  if (!version || compareMicroversions(version, MIN_MICROVERSION) < 0 || compareMicroversions(version, DEFAULT_MAX_MICROVERSION) > 0) {
    throw new RangeError(
      `invalid senlin option "maxMicroversion": got ${JSON.stringify(raw)}, expected 1.0 to ${formatMicroversion(DEFAULT_MAX_MICROVERSION)}`,
    );
  }
  return version;
}

/**
 * OpenStack Senlin v1 under `/v1` on the shared address: clusters, actions on the clock, nodes,
 * profiles and policies, authenticated by the local Keystone's tokens (module `keystone`).
 */
export const senlinModule: PlatformModule = {
  api: SENLIN_API,
  schema: SENLIN_SCHEMA,
  operations: SENLIN_OPERATIONS,
  seed: defineSeed(senlinSeed),
  flags: [
    {
      name: "senlin-max-microversion",
      help: `newest Senlin microversion answered, 1.0 to ${formatMicroversion(DEFAULT_MAX_MICROVERSION)} (default ${formatMicroversion(DEFAULT_MAX_MICROVERSION)})`,
      option: "maxMicroversion",
      parse: (raw) => {
        maxVersionOf({ maxMicroversion: raw });
        return raw;
      },
    },
  ],
  validateOptions(options) {
    maxVersionOf(options);
  },
  start(ctx) {
    const env: SenlinEnv = { store: new SenlinStore(ctx.db), clock: ctx.clock, timeScale: ctx.timeScale, maxVersion: maxVersionOf(ctx.options), rootUrl: ctx.baseUrl };
    return {
      http: createSenlinHttp({ env, db: ctx.db, pipeline: ctx.pipeline, baseUrl: ctx.baseUrl }),
      views: senlinAdminViews(env),
    };
  },
};
