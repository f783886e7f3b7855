import { openTestStack, type TestStack, type TestStackOptions } from "./cmassh-stack";
import type { AuditEntry, LocalPlane } from "./local-plane";

/** The local Keystone's user the Senlin tests authenticate as (a password unlike any other string in the state). */
export const SENLIN_USER = { username: "ops", password: "Zebra-Horse-7b1f-secret", project: "web" } as const;

/** Plane flags that make the local Keystone know {@link SENLIN_USER}. */
export const SENLIN_PLANE_FLAGS = ["--keystone-user", SENLIN_USER.username, "--keystone-password", SENLIN_USER.password, "--keystone-project", SENLIN_USER.project];

/** Stack config giving the provider {@link SENLIN_USER}'s credentials (the password as a secret). */
export const SENLIN_CONFIG = { "clusterform:senlinUsername": SENLIN_USER.username, "clusterform:senlinProjectName": SENLIN_USER.project };

/** Options of {@link openSenlinStack}: the program defaults to `senlin`; credentials default to stack config. */
export type SenlinStackOptions = Omit<TestStackOptions, "program"> & { program?: string; credentials?: "config" | "none" };

/** A test stack of a Senlin program, with a REST session on its plane to seed profiles and policies. */
export interface SenlinStack extends TestStack {
  rest: SenlinRest;
  /** The audit sequence number after the seeding calls: what the stack does comes after it. */
  seeded: number;
}

/**
 * Opens a Senlin test stack: the local Keystone knows {@link SENLIN_USER} (extra `planeFlags` come
 * after and may override), the stack has its credentials unless `credentials: "none"`, and the
 * plane holds the profiles `web-profile` and `web-profile-2` and the policies `deletion` and `affinity`.
 */
export async function openSenlinStack(opts: SenlinStackOptions = {}): Promise<SenlinStack> {
  const withCredentials = (opts.credentials ?? "config") === "config";
  const t = await openTestStack({
    ...opts,
    program: opts.program ?? "senlin",
    planeFlags: [...SENLIN_PLANE_FLAGS, ...(opts.planeFlags ?? [])],
    config: { ...(withCredentials ? SENLIN_CONFIG : {}), ...opts.config },
    secrets: { ...(withCredentials ? { "clusterform:senlinPassword": SENLIN_USER.password } : {}), ...opts.secrets },
  });
  let rest: SenlinRest;
  try {
    rest = await senlinRest(t.plane);
    for (const name of ["web-profile", "web-profile-2"]) await rest.createProfile(name);
    for (const name of ["deletion", "affinity"]) await rest.createPolicy(name);
  } catch (err) {
    await t.plane.stop();
    throw err;
  }
  return { ...t, rest, seeded: await t.plane.lastSeq() };
}

/** Direct Senlin calls on the plane, as an operator working beside Pulumi. */
export interface SenlinRest {
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON Senlin answered, and fail on a wrong shape anyway.
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; location: string }>;
  createProfile(name: string): Promise<string>;
  createPolicy(name: string): Promise<string>;
  /** Waits until an action is SUCCEEDED, FAILED or CANCELLED; answers its status. */
  waitAction(id: string): Promise<string>;
}

/** A REST session on the plane's Senlin as {@link SENLIN_USER}. */
export async function senlinRest(plane: LocalPlane): Promise<SenlinRest> {
  const auth = await fetch(`${plane.url}/v3/auth/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      auth: {
        identity: { methods: ["password"], password: { user: { name: SENLIN_USER.username, domain: { name: "Default" }, password: SENLIN_USER.password } } },
        scope: { project: { name: SENLIN_USER.project, domain: { name: "Default" } } },
      },
    }),
  });
  if (auth.status !== 201) throw new Error(`token request failed: ${auth.status} ${await auth.text()}`);
  const token = auth.headers.get("x-subject-token") ?? "";
  const call: SenlinRest["call"] = async (method, path, body) => {
    const response = await fetch(`${plane.url}${path}`, {
      method,
      // No microversion header: 1.0, which every server speaks, however old the plane is told to be.
      headers: { "Content-Type": "application/json", "X-Auth-Token": token },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed, location: (response.headers.get("location") ?? "").split("/").pop() ?? "" };
  };
  const create = async (kind: "profile" | "policy", name: string, spec: unknown) => {
    const response = await call("POST", `/v1/${kind === "profile" ? "profiles" : "policies"}`, { [kind]: { name, spec } });
    if (response.status !== 201) throw new Error(`${kind} create failed: ${JSON.stringify(response.body)}`);
    return String(response.body[kind].id);
  };
  const rest: SenlinRest = {
    call,
    createProfile: (name) => create("profile", name, { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } }),
    createPolicy: (name) =>
      create("policy", name, { type: name === "affinity" ? "senlin.policy.affinity" : "senlin.policy.deletion", version: "1.0", properties: {} }),
    waitAction: async (id) => {
      for (;;) {
        const { body } = await call("GET", `/v1/actions/${id}`);
        const status = String(body?.action?.status);
        if (["SUCCEEDED", "FAILED", "CANCELLED"].includes(status)) return status;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
  return rest;
}

/** A cluster as GET /_local/senlin/clusters shows it. */
export interface SenlinClusterView {
  id: string;
  name: string;
  status: string;
  status_reason: string;
  profile_name: string;
  min_size: number;
  max_size: number;
  desired_capacity: number;
  timeout: number;
  metadata: Record<string, unknown>;
  config: Record<string, unknown>;
  nodes: string[];
  bindings: { policy_id: string; enabled: boolean }[];
}

/** Every cluster on the plane, of every project. */
export async function senlinClusters(plane: LocalPlane): Promise<SenlinClusterView[]> {
  return (await plane.admin<{ clusters: SenlinClusterView[] }>("/_local/senlin/clusters")).clusters;
}

/** Senlin calls that change something (`<operation> <target>`), without reads and without Keystone. */
export function senlinMutations(entries: AuditEntry[]): string[] {
  return entries.filter((e) => e.api === "senlin" && !/^(Get|List)/.test(e.operation)).map((e) => `${e.operation} ${e.target}`);
}
