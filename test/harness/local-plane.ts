import { type ChildProcess, spawn } from "node:child_process";
import { READ_OPERATION } from "../../common/audit-reads";
import { mkdtempSync } from "node:fs";
import * as path from "node:path";
import { testRunMarker } from "./engine";
import { workDir } from "./paths";

/** One entry of the local control plane's audit log. */
export interface AuditEntry {
  seq: number;
  time: string;
  api: string;
  operation: string;
  target: string;
  requestId: string;
  code: string;
  /** The request body as JSON, secrets redacted; absent when the call had none. */
  request?: unknown;
}

/** A fault to inject (POST /_local/faults). */
export interface Fault {
  api?: string;
  operation?: string;
  target?: string;
  count?: number;
  action: "error" | "delay" | "latency" | "fail-operation" | "reset" | "fail-node" | "preempt-node" | "fail-instance" | "break-watch";
  code?: string;
  message?: string;
  delayMs?: number;
  /** When a "reset" drops the connection: before (`request`) or after (`response`) the call is handled. @default "request" */
  stage?: "request" | "response";
  /** The chance (0 < p <= 1) a matching call is affected, from the plane's seeded source; without `count`, for as long as it is armed. @default 1 */
  probability?: number;
  /** A "latency" adds up to this many milliseconds more. @default 0 */
  jitterMs?: number;
}

/** The local control plane as a separate process, started the way users start it in CI. */
export interface LocalPlane {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Audit entries after `since` (all when omitted). */
  audit(since?: number): Promise<AuditEntry[]>;
  /** The sequence number of the latest audit entry (0 when none). */
  lastSeq(): Promise<number>;
  addFault(fault: Fault): Promise<void>;
  clearFaults(): Promise<void>;
  /** The admin view of every cma-ssh cluster. */
  cmasshClusters(): Promise<CmasshClusterView[]>;
  /** Any admin view, e.g. `/_local/vcluster/vclusters`, parsed as JSON. */
  admin<T>(pathAndQuery: string): Promise<T>;
  /** Extra command-line flags the plane was started with (platform options). */
  readonly flags: readonly string[];
  /** Stops the process (SIGTERM) and waits for it. */
  stop(): Promise<void>;
  /** SIGKILLs the plane's own process (not what it started), as a crash would end it, and waits for it. */
  kill(): Promise<void>;
  /**
   * Starts it again on the same port with the same data (faults are not kept).
   * @param opts.timeScale - the new process's time scale. @default the one it ran at
   */
  restart(opts?: { timeScale?: number }): Promise<void>;
}

/** A cluster as GET /_local/cmassh/clusters shows it. */
export interface CmasshClusterView {
  name: string;
  status: string;
  statusMessage: string;
  k8sVersion: string;
  controlPlane: { instanceType: string; count: number; labels: Record<string, string> | { name: string; value: string }[] };
  pools: { name: string; instanceType: string; count: number; labels: unknown }[];
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: HTTP ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function launch(cli: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const [name, value] = testRunMarker().split("=");
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, [name]: value } });
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.stderr?.on("data", (chunk) => {
      err += chunk;
    });
    child.on("exit", (code) => reject(new Error(`clusterform-local exited with ${code}: ${err || out}`)));
  });
}

/**
 * Starts `clusterform-local` from the package installed in `workspace` (so the shipped command is
 * what runs), on a free port, with its data in a fresh folder or in `dataDir`.
 */
export async function startLocalPlane(opts: {
  workspace: string;
  timeScale?: number;
  flags?: string[];
  /**
   * A data folder to start on, taken over as it is (the plane keeps everything there across
   * restarts): how a test seeds a plane with saved objects. The plane writes to it.
   * @default a fresh folder under .work
   */
  dataDir?: string;
}): Promise<LocalPlane> {
  const cli = path.join(opts.workspace, "node_modules", "clusterform", "dist", "emulator", "cli.js");
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(workDir(), "plane-"));
  let scale = String(opts.timeScale ?? 0.3);
  const flags = opts.flags ?? [];
  let { child, url } = await launch(cli, ["--port", "0", "--data", dataDir, "--time-scale", scale, ...flags]);
  const port = Number(new URL(url).port);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return {
    url,
    port,
    dataDir,
    audit: async (since = 0) => (await json<{ entries: AuditEntry[] }>(`${url}/_local/audit?since=${since}`)).entries,
    lastSeq: async () => {
      const entries = (await json<{ entries: AuditEntry[] }>(`${url}/_local/audit?since=0`)).entries;
      return entries.at(-1)?.seq ?? 0;
    },
    addFault: async (fault) => {
      await json(`${url}/_local/faults`, { method: "POST", body: JSON.stringify(fault), headers: { "content-type": "application/json" } });
    },
    clearFaults: async () => {
      await json(`${url}/_local/faults`, { method: "DELETE" });
    },
    cmasshClusters: async () => (await json<{ clusters: CmasshClusterView[] }>(`${url}/_local/cmassh/clusters`)).clusters,
    admin: (pathAndQuery) => json(`${url}${pathAndQuery}`),
    flags,
    stop,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    restart: async (o = {}) => {
      await stop();
      if (o.timeScale !== undefined) scale = String(o.timeScale);
      ({ child, url } = await launch(cli, ["--port", String(port), "--data", dataDir, "--time-scale", scale, ...flags]));
    },
  };
}

/** The operations of audit entries, without the polling reads (GetCluster). */
/** The writes among `entries` (Keystone's token requests are none), as `operation target`. */
export function writes(entries: AuditEntry[]): string[] {
  return entries.filter((e) => e.api !== "keystone" && !READ_OPERATION.test(e.operation)).map((e) => `${e.operation} ${e.target}`);
}

export function mutations(entries: AuditEntry[]): string[] {
  return entries.filter((e) => e.operation !== "GetCluster").map((e) => `${e.operation} ${e.target}`);
}
