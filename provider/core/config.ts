import { parseDuration } from "./deadline";
import { ClusterformError } from "./errors";
import { DEFAULT_UNREACHABLE_MS } from "./retry";

/** The platforms Clusterform manages. */
export const PLATFORMS = ["cmassh", "cyclecloud", "senlin", "peloton", "vcluster"] as const;

/** One of {@link PLATFORMS}. */
export type Platform = (typeof PLATFORMS)[number];

/** Reads stack configuration; Pulumi's `configure` request config fits. */
export interface ConfigReader {
  /** The value of a namespaced key such as `clusterform:endpoint`, or undefined. */
  get(key: string): string | undefined;
}

/** Environment variables, e.g. `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The local control plane, cma-ssh's own default port. */
export const DEFAULT_ENDPOINT = "http://127.0.0.1:9020";

/** An endpoint and where it came from. */
export interface ResolvedEndpoint {
  /** The URL, without a trailing "/". */
  url: string;
  /** The config key or environment variable it came from, or `default`. */
  source: string;
}

type Source = { label: string; read: () => string | undefined };

function sources(platform: Platform, config: ConfigReader, env: Env): Source[] {
  const envName = `CLUSTERFORM_${platform.toUpperCase()}_ENDPOINT`;
  return [
    { label: `stack config clusterform:${platform}Endpoint`, read: () => config.get(`clusterform:${platform}Endpoint`) },
    { label: `environment variable ${envName}`, read: () => env[envName] },
    { label: "stack config clusterform:endpoint", read: () => config.get("clusterform:endpoint") },
    { label: "environment variable CLUSTERFORM_ENDPOINT", read: () => env.CLUSTERFORM_ENDPOINT },
  ];
}

/**
 * Finds the endpoint of `platform`: the platform's stack config key, its environment variable, the
 * shared stack config key, the shared variable, then {@link DEFAULT_ENDPOINT}. Empty values count as
 * unset. Resolved at each call, so configuration changes between runs are always seen.
 * @param env - the environment. @default process.env
 * @throws ClusterformError InvalidArgument naming the key or variable when the URL is not usable.
 */
export function resolveEndpoint(platform: Platform, config: ConfigReader, env: Env = process.env): ResolvedEndpoint {
  for (const source of sources(platform, config, env)) {
    const value = source.read()?.trim();
    if (value) return { url: checkUrl(platform, value, source.label), source: source.label };
  }
  return { url: DEFAULT_ENDPOINT, source: "default" };
}

function checkUrl(platform: Platform, value: string, label: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !["http:", "https:"].includes(url.protocol) || url.hostname === "" || url.search || url.hash) {
    throw new ClusterformError({
      code: "InvalidArgument",
      platformCode: "INVALID_CONFIG",
      operation: `resolving the ${platform} endpoint`,
      platformMessage: `${label} is ${JSON.stringify(value)}: it must be an http:// or https:// URL with a host and an optional port, such as ${DEFAULT_ENDPOINT}`,
    });
  }
  return value.replace(/\/+$/, "");
}

/** A duration setting: its stack config key, its environment variable, its default, what it bounds. */
interface DurationSetting {
  key: string;
  envName: string;
  defaultMs: number;
  /** What the setting is, for the error's operation, e.g. `the unreachable-platform timeout`. */
  what: string;
  /** True when zero is not a usable value. */
  positive: boolean;
}

/** Reads a duration setting from the stack config, then the environment; the default when neither is set. */
function resolveDurationMs(setting: DurationSetting, config: ConfigReader, env: Env): number {
  const candidates = [
    { label: `stack config ${setting.key}`, value: config.get(setting.key) },
    { label: `environment variable ${setting.envName}`, value: env[setting.envName] },
  ];
  const found = candidates.find((c) => c.value?.trim());
  if (!found) return setting.defaultMs;
  let ms: number | undefined;
  try {
    ms = parseDuration(found.value!);
  } catch {
    ms = undefined;
  }
  if (ms === undefined || (setting.positive && ms <= 0)) {
    throw new ClusterformError({
      code: "InvalidArgument",
      platformCode: "INVALID_CONFIG",
      operation: `reading ${setting.what}`,
      platformMessage: `${found.label} is ${JSON.stringify(found.value)}: it must be a duration${setting.positive ? " above zero" : ""} such as "30s", "1m" or "2m30s"`,
    });
  }
  return ms;
}

/**
 * How long an unreachable platform (connection refused, unknown host, TLS failure) is retried
 * before an operation fails: stack config `clusterform:unreachableTimeout`, then the environment
 * variable `CLUSTERFORM_UNREACHABLE_TIMEOUT`, as a duration such as `30s` or `2m`; else 1 minute.
 * @throws ClusterformError InvalidArgument naming the key, the value and the accepted form.
 */
export function resolveUnreachableTimeoutMs(config: ConfigReader, env: Env = process.env): number {
  const setting = {
    key: "clusterform:unreachableTimeout",
    envName: "CLUSTERFORM_UNREACHABLE_TIMEOUT",
    defaultMs: DEFAULT_UNREACHABLE_MS,
    what: "the unreachable-platform timeout",
    positive: false,
  };
  return resolveDurationMs(setting, config, env);
}

/** How long one call to a platform may take by default. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * How long one call (one attempt) to a platform may take before it is abandoned and, when the call
 * is safe to repeat, retried like an unavailable platform: stack config `clusterform:callTimeout`,
 * then the environment variable `CLUSTERFORM_CALL_TIMEOUT`, as a duration such as `10s`; else
 * {@link DEFAULT_CALL_TIMEOUT_MS}. Each attempt is also cut to what the operation's deadline has left.
 * @throws ClusterformError InvalidArgument naming the key, the value and the accepted form.
 */
export function resolveCallTimeoutMs(config: ConfigReader, env: Env = process.env): number {
  const setting = { key: "clusterform:callTimeout", envName: "CLUSTERFORM_CALL_TIMEOUT", defaultMs: DEFAULT_CALL_TIMEOUT_MS, what: "the per-call timeout", positive: true };
  return resolveDurationMs(setting, config, env);
}

/** The call settings every platform client takes from the configuration. */
export interface CallSettings {
  unreachableTimeoutMs: number;
  callTimeoutMs: number;
}

/** Reads {@link resolveUnreachableTimeoutMs} and {@link resolveCallTimeoutMs} at once. */
export function resolveCallSettings(config: ConfigReader, env: Env = process.env): CallSettings {
  return { unreachableTimeoutMs: resolveUnreachableTimeoutMs(config, env), callTimeoutMs: resolveCallTimeoutMs(config, env) };
}
