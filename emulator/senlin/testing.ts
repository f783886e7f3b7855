import type { JsonResponse, TestPlane } from "../testing";

/** A JSON response with its headers, as Senlin tests read them. */
export interface SenlinResponse extends JsonResponse {
  headers: Headers;
}

/** Options of one test call. */
export interface CallOptions {
  /** Sent as `OpenStack-API-Version: clustering <version>`; none when undefined. @default "1.14" */
  version?: string;
  /** Replaces the session token; null sends none. @default the session's token */
  token?: string | null;
}

/** An authenticated Senlin caller for tests. */
export interface SenlinSession {
  token: string;
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<SenlinResponse>;
  /** The action id of a reply's `Location` header. */
  actionOf(response: SenlinResponse): string;
  /** Creates a profile and a cluster; answers the cluster's id and create action. */
  createCluster(name: string, cluster?: Record<string, unknown>): Promise<{ id: string; action: string }>;
  /** Creates an `os.nova.server-1.0` profile; answers its id. */
  createProfile(name: string): Promise<string>;
}

/** Issues a token through the plane's Keystone for `user`/`password`/`project`. */
export async function issueTestToken(t: TestPlane, user = "admin", password = "admin", project = "admin"): Promise<string> {
  const response = await fetch(`${t.plane.url}/v3/auth/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      auth: {
        identity: { methods: ["password"], password: { user: { name: user, domain: { name: "Default" }, password } } },
        scope: { project: { name: project, domain: { name: "Default" } } },
      },
    }),
  });
  if (response.status !== 201) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return response.headers.get("x-subject-token") ?? "";
}

/** A session with a fresh admin token (or the given user's). */
export async function senlinSession(t: TestPlane, user?: string, password?: string, project?: string): Promise<SenlinSession> {
  const token = await issueTestToken(t, user, password, project);
  const call: SenlinSession["call"] = async (method, path, body, options = {}) => {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const sent = options.token === undefined ? token : options.token;
    if (sent !== null) headers["X-Auth-Token"] = sent;
    const version = "version" in options ? options.version : "1.14";
    if (version !== undefined) headers["OpenStack-API-Version"] = `clustering ${version}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await fetch(`${t.plane.url}${path}`, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  const session: SenlinSession = {
    token,
    call,
    actionOf: (response) => (response.headers.get("location") ?? "").split("/").pop() ?? "",
    createProfile: async (name) => {
      const spec = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
      const response = await call("POST", "/v1/profiles", { profile: { name, spec } });
      if (response.status !== 201) throw new Error(`profile create failed: ${response.text}`);
      return (response.body as { profile: { id: string } }).profile.id;
    },
    createCluster: async (name, cluster = {}) => {
      const profileId = await session.createProfile(`${name}-profile`);
      const response = await call("POST", "/v1/clusters", { cluster: { name, profile_id: profileId, ...cluster } });
      if (response.status !== 202) throw new Error(`cluster create failed: ${response.text}`);
      return { id: (response.body as { cluster: { id: string } }).cluster.id, action: session.actionOf(response) };
    },
  };
  return session;
}
