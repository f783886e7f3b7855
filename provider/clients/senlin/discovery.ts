/** What Senlin's version document says about v1. */
export interface SenlinVersion {
  /** The v1 base URL to send calls to (`…/v1`). */
  baseUrl: string;
  /** The newest microversion the server answers, e.g. `1.14`; undefined when it does not say. */
  maxVersion?: string;
  /** True when the answer may change on a second look (a 5xx or no answer): the caller reads again next time. */
  transient?: boolean;
}

interface VersionInfo {
  id?: unknown;
  status?: unknown;
  links?: { href?: unknown; rel?: unknown }[];
  max_version?: unknown;
}

/** `…/v1` for any spelling of a Senlin endpoint (the fallback when the server has no version document). */
export function senlinBase(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

/** v1's entry of a version document: `{"version": {...}}` at a versioned URL, `{"versions": [...]}` at the root. */
function v1Of(body: unknown): VersionInfo | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { version, versions } = body as { version?: VersionInfo; versions?: VersionInfo[] };
  if (version && typeof version === "object") return version;
  if (!Array.isArray(versions)) return undefined;
  return versions.find((v) => typeof v.id === "string" && /^v?1(\.\d+)?$/.test(v.id));
}

/**
 * Finds Senlin v1 the way keystoneauth does: reads the version document at the catalog's URL
 * (Senlin serves it without a token: the version list at its root, v1's own at `/v1`), takes v1's
 * `self` link and `max_version`. A server or proxy without a document falls back to the catalog's
 * URL with `/v1` added, as keystoneauth falls back to the endpoint itself.
 */
export async function discoverSenlin(endpoint: string, timeoutMs: number, doFetch: typeof fetch = globalThis.fetch): Promise<SenlinVersion> {
  const fallback = { baseUrl: senlinBase(endpoint) };
  let body: unknown;
  try {
    const response = await doFetch(endpoint.replace(/\/+$/, "") || endpoint, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
    // 300 Multiple Choices is the root's normal answer; a 5xx says nothing about the document.
    if (response.status >= 500) return { ...fallback, transient: true };
    if (response.status !== 200 && response.status !== 300) return fallback;
    body = await response.json();
  } catch {
    // Unreachable or cut off: the call itself goes on with the fallback and meets the same
    // failure, which its own retries handle.
    return { ...fallback, transient: true };
  }
  const v1 = v1Of(body);
  if (!v1) return fallback;
  const self = v1.links?.find((l) => l.rel === "self")?.href;
  // The link's path on the catalog URL's origin: a server behind a proxy knows its path, not always the address clients reach it at.
  const baseUrl = typeof self === "string" && URL.canParse(self) ? `${new URL(endpoint).origin}${new URL(self).pathname.replace(/\/+$/, "")}` : fallback.baseUrl;
  const maxVersion = typeof v1.max_version === "string" && /^\d+\.\d+$/.test(v1.max_version) ? v1.max_version : undefined;
  return { baseUrl, maxVersion };
}
