import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import type * as Yaml from "yaml";
import type { KeystoneCredentials } from "../../clients/keystone/client";
import { type ConfigReader, DEFAULT_ENDPOINT, type Env, type Platform, resolveEndpoint } from "../../core/config";
import { ClusterformError } from "../../core/errors";

/** Everything an OpenStack service client needs: Keystone credentials and where to find the service. */
export interface OpenStackSettings {
  credentials: KeystoneCredentials;
  /** Region of the catalog endpoint; any region when undefined. */
  region?: string;
  /** Interface of the catalog endpoint. @default "public" */
  interface?: string;
  /** The service URL given explicitly; the catalog's when undefined. */
  endpoint?: string;
  /** Where each value came from, e.g. `username: environment variable OS_USERNAME` (never a value). */
  sources: Record<string, string>;
}

/** One credential field: its stack config suffix, its `OS_*` variable and its clouds.yaml key. */
interface Field {
  key: keyof SettingsValues;
  config: string;
  env: string;
  cloud: (cloud: CloudEntry) => unknown;
}

interface SettingsValues {
  authUrl?: string;
  username?: string;
  password?: string;
  projectName?: string;
  userDomainName?: string;
  projectDomainName?: string;
  region?: string;
  interface?: string;
}

/** One entry of clouds.yaml's `clouds` map (the keys python-openstackclient reads). */
interface CloudEntry {
  auth?: Record<string, unknown>;
  region_name?: unknown;
  interface?: unknown;
}

/** Each field, as stack config, environment and clouds.yaml spell it. Stack config wins, then `OS_*`, then clouds.yaml. */
const FIELDS: readonly Field[] = [
  { key: "authUrl", config: "AuthUrl", env: "OS_AUTH_URL", cloud: (c) => c.auth?.auth_url },
  { key: "username", config: "Username", env: "OS_USERNAME", cloud: (c) => c.auth?.username },
  { key: "password", config: "Password", env: "OS_PASSWORD", cloud: (c) => c.auth?.password },
  { key: "projectName", config: "ProjectName", env: "OS_PROJECT_NAME", cloud: (c) => c.auth?.project_name },
  { key: "userDomainName", config: "UserDomainName", env: "OS_USER_DOMAIN_NAME", cloud: (c) => c.auth?.user_domain_name ?? c.auth?.domain_name },
  {
    key: "projectDomainName",
    config: "ProjectDomainName",
    env: "OS_PROJECT_DOMAIN_NAME",
    cloud: (c) => c.auth?.project_domain_name ?? c.auth?.domain_name,
  },
  { key: "region", config: "Region", env: "OS_REGION_NAME", cloud: (c) => c.region_name },
  { key: "interface", config: "Interface", env: "OS_INTERFACE", cloud: (c) => c.interface },
];

/** The files clouds.yaml is looked for in, first found wins (openstacksdk's search path). */
export function cloudsYamlPaths(env: Env, cwd = process.cwd(), home = homedir()): string[] {
  if (env.OS_CLIENT_CONFIG_FILE) return [env.OS_CLIENT_CONFIG_FILE];
  const userConfig = env.XDG_CONFIG_HOME ? path.join(env.XDG_CONFIG_HOME, "openstack") : path.join(home, ".config", "openstack");
  return [path.join(cwd, "clouds.yaml"), path.join(userConfig, "clouds.yaml"), "/etc/openstack/clouds.yaml"];
}

/** Reads a file's text, or undefined when it does not exist. */
export type ReadText = (file: string) => string | undefined;

const readIfPresent: ReadText = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
};

function configError(operation: string, message: string): ClusterformError {
  return new ClusterformError({ code: "InvalidArgument", platformCode: "INVALID_CONFIG", operation, platformMessage: message });
}

/** The named cloud of the first clouds.yaml found on the search path. */
function loadCloud(name: string, files: string[], read: ReadText): { entry: CloudEntry; file: string } {
  const operation = `reading OpenStack cloud ${JSON.stringify(name)} from clouds.yaml`;
  for (const file of files) {
    const text = read(file);
    if (text === undefined) continue;
    let doc: unknown;
    try {
      // Required here, not imported: only a stack that names a cloud (OS_CLOUD) pays for the parser.
      doc = (require("yaml") as typeof Yaml).parse(text);
    } catch (err) {
      throw configError(operation, `${file} is not valid YAML: ${(err as Error).message.split("\n")[0]}`);
    }
    const clouds = (doc as { clouds?: Record<string, CloudEntry> } | null)?.clouds;
    const entry = clouds?.[name];
    if (!entry || typeof entry !== "object") {
      const known = Object.keys(clouds ?? {}).map((k) => JSON.stringify(k));
      throw configError(operation, `${file} has no cloud ${JSON.stringify(name)}; it has ${known.length ? known.join(", ") : "none"}`);
    }
    return { entry, file };
  }
  throw configError(operation, `no clouds.yaml found; looked in ${files.join(", ")}`);
}

/** Options of {@link resolveOpenStackSettings}, for tests. */
export interface ResolveOptions {
  /** @default process.env */
  env?: Env;
  /** @default the file system */
  read?: ReadText;
  /** Directory of the first clouds.yaml candidate. @default process.cwd() */
  cwd?: string;
  /** @default os.homedir() */
  home?: string;
}

/**
 * Resolves OpenStack credentials the way OpenStack users give them, field by field: stack config
 * `clusterform:<platform><Field>` (e.g. `clusterform:senlinUsername`; the password as a secret),
 * then the `OS_*` environment variables, then the cloud named by `clusterform:<platform>Cloud` or
 * `OS_CLOUD` in the first clouds.yaml of the standard search path. Without any auth URL, Keystone
 * is looked for at the shared endpoint (`clusterform:endpoint`, `CLUSTERFORM_ENDPOINT`, the local
 * control plane), which serves it next to the platforms. The service URL is the catalog's unless
 * `clusterform:<platform>Endpoint` or `CLUSTERFORM_<PLATFORM>_ENDPOINT` names one.
 * @throws ClusterformError InvalidArgument naming what is missing and every way to give it.
 */
export function resolveOpenStackSettings(platform: Platform, config: ConfigReader, options: ResolveOptions = {}): OpenStackSettings {
  const env = options.env ?? process.env;
  const cloudName = config.get(`clusterform:${platform}Cloud`)?.trim() || env.OS_CLOUD?.trim();
  const cloud = cloudName
    ? loadCloud(cloudName, cloudsYamlPaths(env, options.cwd, options.home), options.read ?? readIfPresent)
    : undefined;
  const values: SettingsValues = {};
  const sources: Record<string, string> = {};
  for (const field of FIELDS) {
    const candidates: [string, unknown][] = [
      [`stack config clusterform:${platform}${field.config}`, config.get(`clusterform:${platform}${field.config}`)],
      [`environment variable ${field.env}`, env[field.env]],
      [`cloud ${JSON.stringify(cloudName)} of ${cloud?.file}`, cloud ? field.cloud(cloud.entry) : undefined],
    ];
    const found = candidates.find(([, v]) => (typeof v === "string" && v.trim() !== "") || typeof v === "number");
    if (found) {
      values[field.key] = String(found[1]).trim();
      sources[field.key] = found[0];
    }
  }
  if (!values.authUrl) {
    const shared = sharedEndpoint(config, env);
    values.authUrl = shared.url;
    sources.authUrl = `${shared.source} (no auth URL given)`;
  }
  const missing = (["username", "password", "projectName"] as const).filter((k) => !values[k]);
  if (missing.length > 0) throw missingCredentials(platform, missing);
  return {
    credentials: {
      authUrl: values.authUrl,
      username: values.username!,
      password: values.password!,
      projectName: values.projectName!,
      userDomainName: values.userDomainName,
      projectDomainName: values.projectDomainName,
    },
    region: values.region,
    interface: values.interface,
    endpoint: explicitEndpoint(platform, config, env),
    sources,
  };
}

/** The shared endpoint only: a platform's own endpoint setting names its service, not Keystone. */
function sharedEndpoint(config: ConfigReader, env: Env): { url: string; source: string } {
  const fromConfig = config.get("clusterform:endpoint")?.trim();
  if (fromConfig) return { url: fromConfig.replace(/\/+$/, ""), source: "stack config clusterform:endpoint" };
  if (env.CLUSTERFORM_ENDPOINT?.trim()) return { url: env.CLUSTERFORM_ENDPOINT.trim().replace(/\/+$/, ""), source: "environment variable CLUSTERFORM_ENDPOINT" };
  return { url: DEFAULT_ENDPOINT, source: "the local control plane's default address" };
}

/** The service URL when the platform's own endpoint key or variable is set (validated), else undefined. */
function explicitEndpoint(platform: Platform, config: ConfigReader, env: Env): string | undefined {
  const own = config.get(`clusterform:${platform}Endpoint`)?.trim() || env[`CLUSTERFORM_${platform.toUpperCase()}_ENDPOINT`]?.trim();
  return own ? resolveEndpoint(platform, config, env).url : undefined;
}

const HOW: Readonly<Record<string, string>> = {
  username: "OS_USERNAME",
  password: "OS_PASSWORD",
  projectName: "OS_PROJECT_NAME",
};

function missingCredentials(platform: Platform, missing: readonly string[]): ClusterformError {
  const ways = missing.map((k) => `${HOW[k]} or clusterform:${platform}${k[0].toUpperCase()}${k.slice(1)}`).join(", ");
  return configError(
    `reading the OpenStack credentials of ${platform}`,
    `${missing.join(", ")} not given: set ${ways} (the password as a secret: pulumi config set --secret), or name a cloud of clouds.yaml with OS_CLOUD or clusterform:${platform}Cloud`,
  );
}
