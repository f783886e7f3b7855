import { openTestStack, type TestStack, type TestStackOptions } from "../harness/cmassh-stack";
import type { AuditEntry, LocalPlane } from "../harness/local-plane";

/** The password the test planes accept: distinctive, so the state can be searched for it. */
export const CC_PASSWORD = "Cc-s3cret-9f2e71";

/** Installs the package, starts a local control plane with CycleCloud credentials and opens a stack of a CycleCloud program. */
export function openCycleCloudStack(opts: Partial<TestStackOptions> = {}): Promise<TestStack> {
  return openTestStack({
    program: "cyclecloud",
    timeScale: 0.1,
    ...opts,
    planeFlags: ["--cyclecloud-password", CC_PASSWORD, ...(opts.planeFlags ?? [])],
    config: { "clusterform:cyclecloudUsername": "admin", ...opts.config },
    secrets: { "clusterform:cyclecloudPassword": CC_PASSWORD, ...opts.secrets },
  });
}

/** CycleCloud calls that change something (reads left out), as `Operation target`, with the code when not OK. */
export function ccMutations(entries: AuditEntry[]): string[] {
  return entries
    .filter((e) => e.api === "cyclecloud" && !/^(Get|List)/.test(e.operation))
    .map((e) => `${e.operation} ${e.target}${e.code === "OK" ? "" : ` ${e.code}`}`);
}

/** Every CycleCloud call, reads included. */
export function ccCalls(entries: AuditEntry[]): AuditEntry[] {
  return entries.filter((e) => e.api === "cyclecloud");
}

/** A node as the admin view shows it. */
export interface CcNode {
  cluster: string;
  name: string;
  id: string;
  nodearray: string;
  machineType: string;
  state: string;
  statusMessage: string;
  placementGroup: string;
  attributes: Record<string, unknown>;
}

/** An operation as the admin view shows it. */
export interface CcOperation {
  id: string;
  cluster: string;
  requestId: string | null;
  action: string;
  nodeIds: string[];
}

/** Every node with a record. */
export async function ccNodes(plane: LocalPlane): Promise<CcNode[]> {
  return ((await plane.admin("/_local/cyclecloud/nodes")) as { nodes: CcNode[] }).nodes;
}

/** Every operation, oldest first. */
export async function ccOperations(plane: LocalPlane): Promise<CcOperation[]> {
  return ((await plane.admin("/_local/cyclecloud/operations")) as { operations: CcOperation[] }).operations;
}

/** `name:state` of every node. */
export async function ccStates(plane: LocalPlane): Promise<string[]> {
  return (await ccNodes(plane)).map((n) => `${n.name}:${n.state}`);
}

/** Calls the CycleCloud REST API as a user outside Pulumi would. */
export async function ccRest(plane: LocalPlane, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${plane.url}${path}`, {
    method,
    headers: { Authorization: `Basic ${Buffer.from(`admin:${CC_PASSWORD}`).toString("base64")}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Sends an admin action of the local control plane (POST with a JSON body). */
export async function ccAdmin(plane: LocalPlane, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${plane.url}${path}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}

/** Outputs of the program, per pool key. */
export async function poolOutputs(t: TestStack): Promise<{ nodeNames: Record<string, string[]>; nodeIds: Record<string, string[]>; readyCount: Record<string, number> }> {
  const out = await t.stack.stack.outputs();
  return {
    nodeNames: out.nodeNames.value as Record<string, string[]>,
    nodeIds: out.nodeIds.value as Record<string, string[]>,
    readyCount: out.readyCount.value as Record<string, number>,
  };
}
