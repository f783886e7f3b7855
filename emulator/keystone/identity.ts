import { createHash } from "node:crypto";

/** A user the local Keystone knows, with the one project it may scope tokens to. */
export interface KeystoneUser {
  name: string;
  password: string;
  /** The project (tenant) the user is a member of. */
  project: string;
  /** Whether the user holds the `admin` role (else `member`): admins may list across projects. */
  admin: boolean;
}

/** What the local Keystone is configured with (its module options, checked). */
export interface KeystoneConfig {
  /** Name of the one domain; its id is the lowercased name (`Default` -> `default`). */
  domain: string;
  users: readonly KeystoneUser[];
  /** How long an issued token stays valid, in seconds of the emulator clock (not time-scaled). */
  tokenTtlSeconds: number;
  /** The region every catalog endpoint is in. */
  region: string;
}

/** Defaults: the credentials a fresh devstack uses. */
export const KEYSTONE_DEFAULTS = {
  user: "admin",
  password: "admin",
  project: "admin",
  domain: "Default",
  /** Keystone's own default token expiration (`[token] expiration`). */
  tokenTtlSeconds: 3600,
  region: "RegionOne",
} as const;

/** Stable 32-hex id of a named object, so ids survive restarts without a table. */
export function stableId(kind: string, ...parts: string[]): string {
  return createHash("sha256").update(`${kind}:${parts.join("/")}`).digest("hex").slice(0, 32);
}

/** The id of a domain from its name. */
export function domainIdOf(domain: string): string {
  return domain.toLowerCase();
}

/** The id of a project in the domain. */
export function projectIdOf(config: KeystoneConfig, project: string): string {
  return stableId("project", domainIdOf(config.domain), project);
}

/** The id of a user in the domain. */
export function userIdOf(config: KeystoneConfig, user: string): string {
  return stableId("user", domainIdOf(config.domain), user);
}

/** Parses `name:password:project[:admin]` entries separated by commas (the `--keystone-users` flag). */
export function parseExtraUsers(raw: string): KeystoneUser[] {
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const [name, password, project, role, ...rest] = entry.split(":");
      if (!name || !password || !project || rest.length > 0 || (role !== undefined && role !== "admin")) {
        throw new Error(`invalid user entry "${name ?? ""}:...": expected name:password:project or name:password:project:admin`);
      }
      return { name, password, project, admin: role === "admin" };
    });
}

/** Builds the configuration from module options, applying the defaults; throws a RangeError naming a bad option. */
export function keystoneConfig(options: Readonly<Record<string, unknown>>): KeystoneConfig {
  const text = (key: string, fallback: string): string => {
    const value = options[key] ?? fallback;
    if (typeof value !== "string" || value.trim() === "") {
      throw new RangeError(`invalid keystone option "${key}": expected a non-empty string`);
    }
    return value;
  };
  const ttl = options.tokenTtlSeconds ?? KEYSTONE_DEFAULTS.tokenTtlSeconds;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) {
    throw new RangeError(`invalid keystone option "tokenTtlSeconds": got ${String(ttl)}, expected a number of seconds > 0`);
  }
  const main: KeystoneUser = {
    name: text("user", KEYSTONE_DEFAULTS.user),
    password: text("password", KEYSTONE_DEFAULTS.password),
    project: text("project", KEYSTONE_DEFAULTS.project),
    admin: true,
  };
  const extra = (options.extraUsers as KeystoneUser[] | undefined) ?? [];
  return {
    domain: text("domain", KEYSTONE_DEFAULTS.domain),
    users: [main, ...extra],
    tokenTtlSeconds: ttl,
    region: text("region", KEYSTONE_DEFAULTS.region),
  };
}
