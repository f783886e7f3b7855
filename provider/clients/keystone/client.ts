import { type Clock, Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import type { Sleep } from "../../core/retry";
import { createRestCaller, type RestAuth } from "../shared/rest-caller";
import { type CatalogService, type EndpointFilter, findEndpoint, parseCatalog } from "./catalog";

/** Password credentials, the way OpenStack users give them (`OS_AUTH_URL`, `OS_USERNAME`, ...). */
export interface KeystoneCredentials {
  /** Keystone's URL, with or without the `/v3` suffix, e.g. `http://controller:5000/v3`. */
  authUrl: string;
  username: string;
  /** A secret: never logged, never in an error. */
  password: string;
  projectName: string;
  /** Domain of the user. @default "Default" */
  userDomainName?: string;
  /** Domain of the project. @default the user's domain */
  projectDomainName?: string;
}

/** Options of {@link createKeystoneClient}. */
export interface KeystoneClientOptions extends KeystoneCredentials {
  /** Renew a token this long before it expires (at most half its lifetime). @default 60000 */
  renewBeforeMs?: number;
  /** Time limit of one request. @default 30000 */
  callTimeoutMs?: number;
  /** Deadline of an authentication when the caller gives none. @default 120000 */
  defaultDeadlineMs?: number;
  /** Sleep between retries (tests pass a fake). @default real timers */
  sleep?: Sleep;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** The local clock token lifetimes are measured on. @default Date.now */
  clock?: Clock;
  /** How long an unreachable Keystone is retried before authentication fails. @default 60000 */
  unreachableTimeoutMs?: number;
}

/** A token and what came with it. */
export interface KeystoneSession {
  /** The `X-Subject-Token`; a secret. */
  token: string;
  userId: string;
  projectId: string;
  catalog: CatalogService[];
  /** When to stop using the token, on the local clock (server skew removed). */
  renewAtMs: number;
}

/** Password authentication with a per-process token cache, usable as a REST client's {@link RestAuth}. */
export interface KeystoneClient extends RestAuth {
  /** The cached token, or a new one when none is cached or it is due for renewal. */
  session(deadline?: Deadline): Promise<KeystoneSession>;
  /** The URL of a catalog service's endpoint, e.g. `clustering`. */
  endpoint(type: string, filter?: EndpointFilter, deadline?: Deadline): Promise<string>;
}

/** Tokens by auth URL, user, project and domains: shared by every client in the process. */
const TOKENS = new Map<string, Promise<KeystoneSession>>();

/** Forgets every cached token (tests). */
export function clearKeystoneTokenCache(): void {
  TOKENS.clear();
}

/** `…/v3` for any spelling of the auth URL. */
export function identityBase(authUrl: string): string {
  const trimmed = authUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v3") ? trimmed : `${trimmed}/v3`;
}

function cacheKey(c: KeystoneCredentials): string {
  const userDomain = c.userDomainName ?? "Default";
  return JSON.stringify([identityBase(c.authUrl), userDomain, c.username, c.projectDomainName ?? userDomain, c.projectName]);
}

function requestBody(c: KeystoneCredentials) {
  const userDomain = c.userDomainName ?? "Default";
  return {
    auth: {
      identity: { methods: ["password"], password: { user: { name: c.username, domain: { name: userDomain }, password: c.password } } },
      scope: { project: { name: c.projectName, domain: { name: c.projectDomainName ?? userDomain } } },
    },
  };
}

interface TokenBody {
  token?: { issued_at?: string; expires_at?: string; user?: { id?: string }; project?: { id?: string }; catalog?: unknown };
}

/** Creates a Keystone client for one set of credentials. */
export function createKeystoneClient(options: KeystoneClientOptions): KeystoneClient {
  const clock = options.clock ?? Date.now;
  const base = identityBase(options.authUrl);
  const key = cacheKey(options);
  const caller = createRestCaller({
    ...options,
    baseUrl: base,
    requestIdHeader: "X-OpenStack-Request-ID",
    requestIdPrefix: "req",
    secrets: () => [options.password],
  });
  const operation = `authenticating user ${JSON.stringify(options.username)} in project ${JSON.stringify(options.projectName)} at ${base}`;
  let latestToken = "";

  async function issue(deadline: Deadline): Promise<KeystoneSession> {
    const startedMs = clock();
    const response = await caller.retried<TokenBody>(operation, { method: "POST", path: "/auth/tokens", body: requestBody(options) }, { deadline });
    const token = response.headers.get("x-subject-token") ?? "";
    const body = response.body?.token ?? {};
    if (!token) {
      throw new ClusterformError({ code: "Internal", platformCode: "NO_TOKEN", operation, platformMessage: "the response carried no X-Subject-Token header" });
    }
    latestToken = token;
    // Lifetime from the server's own two timestamps, so a skewed local clock cannot shorten or stretch it.
    const lifetimeMs = Math.max(0, Date.parse(body.expires_at ?? "") - Date.parse(body.issued_at ?? "")) || 3_600_000;
    const renewBeforeMs = Math.min(options.renewBeforeMs ?? 60_000, lifetimeMs / 2);
    return {
      token,
      userId: body.user?.id ?? "",
      projectId: body.project?.id ?? "",
      catalog: parseCatalog(body.catalog),
      renewAtMs: startedMs + lifetimeMs - renewBeforeMs,
    };
  }

  async function session(deadline = new Deadline(options.defaultDeadlineMs ?? 120_000, clock)): Promise<KeystoneSession> {
    const cached = TOKENS.get(key);
    if (cached) {
      const current = await cached.catch(() => undefined);
      if (current && clock() < current.renewAtMs) return current;
      if (TOKENS.get(key) !== cached) return session(deadline);
    }
    const pending = issue(deadline);
    TOKENS.set(key, pending);
    pending.catch(() => {
      if (TOKENS.get(key) === pending) TOKENS.delete(key);
    });
    return pending;
  }

  return {
    session,
    endpoint: async (type, filter, deadline) => findEndpoint((await session(deadline)).catalog, type, filter),
    headers: async (deadline) => {
      latestToken = (await session(deadline)).token;
      return { "X-Auth-Token": latestToken };
    },
    invalidate: () => {
      TOKENS.delete(key);
    },
    secrets: () => [options.password, latestToken].filter((s) => s !== ""),
  };
}
