import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { RunningApiServer, serverFiles } from "./api-server";
import type { KubernetesBinaries } from "./binaries";
import { freePort } from "./free-port";
import { KINE_DATABASE, type RunningKine, startKine } from "./kine";
import { ProcessLedger } from "./process-ledger";

/** One cluster as a platform wants its API server. */
export interface ApiServerTarget {
  /** `<api>/<cluster id>`: unique across the plane and stable for the cluster's life. */
  key: string;
  /** The cluster's admin bearer token, the one its kubeconfig carries. */
  token: string;
  /** The version the platform says the cluster runs (the API server reports its own; see docs/local-plane.md). */
  kubernetesVersion: string;
  /** true: serve now; false: stopped with its data kept (a suspended vcluster). */
  run: boolean;
}

/** What a kubeconfig needs to reach a cluster's API server. */
export interface ApiServerAccess {
  /** `https://127.0.0.1:<port>`. */
  server: string;
  /** Base64 of the PEM bundle whose CA signed the serving certificate. */
  certificateAuthorityData: string;
}

/** The Kubernetes side of the plane, as platform modules see it. */
export interface KubernetesHost {
  /**
   * Hands the host a platform's list of clusters. Every cluster the list names gets an API server
   * (running or stopped as it says); an API server whose cluster left the list is deleted with its data.
   */
  register(api: string, targets: () => readonly ApiServerTarget[]): void;
  /** True once the cluster's API server answers /readyz. */
  isReady(key: string): boolean;
  /** Where the cluster's API server listens and its CA, once it has served at least once. */
  access(key: string): ApiServerAccess | undefined;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kubernetes_api_servers (
  key TEXT PRIMARY KEY,
  port INTEGER NOT NULL,
  prefix TEXT NOT NULL,
  dir TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
`;

interface ServerRecord {
  key: string;
  port: number;
  prefix: string;
  dir: string;
}

/** How often the host compares what the platforms want with what runs. */
export const RECONCILE_INTERVAL_MS = 200;
/** The least time between two starts of the same cluster's API server after it died. */
const RESTART_BACKOFF_MS = 3000;

/** An API server as the admin view shows it (no secrets). */
export interface ApiServerView {
  key: string;
  port: number;
  prefix: string;
  state: "running" | "starting" | "stopped" | "failed";
  pids: number[];
  /** Resident memory of its processes in bytes, from /proc (0 when not running). */
  rssBytes: number;
  startedMs: number;
  readyMs: number;
}

function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Options of {@link createKubernetesHost}. */
export interface KubernetesHostOptions {
  db: DatabaseSync;
  /** The plane's data folder; the host keeps its files under `<dataDir>/kubernetes`. */
  dataDir: string;
  binaries: KubernetesBinaries;
  /** Where messages about failed API servers go. @default stderr */
  log?: (line: string) => void;
}

/**
 * Runs one kine and an API server (with a controller manager) per cluster, following the platforms'
 * lists. Ports, prefixes and certificates are kept in the plane's database and folder, so a cluster's
 * kubeconfig stays valid across suspend, resume and restarts of the plane.
 */
export class LocalKubernetes implements KubernetesHost {
  private readonly root: string;
  private readonly platforms = new Map<string, () => readonly ApiServerTarget[]>();
  private readonly running = new Map<string, RunningApiServer>();
  private readonly timing = new Map<string, { startedMs: number; readyMs: number; lastStartMs: number }>();
  private kine: Promise<RunningKine> | undefined;
  private kineStarted: RunningKine | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> = Promise.resolve();
  private closed = false;
  /** While true (a saved plane being loaded, a reset), passes change nothing. */
  private paused = false;
  private readonly log: (line: string) => void;
  private readonly ledger: ProcessLedger;

  constructor(private readonly opts: KubernetesHostOptions) {
    this.root = path.join(opts.dataDir, "kubernetes");
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    opts.db.exec(SCHEMA);
    this.ledger = new ProcessLedger(opts.db);
    this.log = opts.log ?? ((line) => process.stderr.write(`clusterform-local: ${line}\n`));
  }

  private tracker(key: string) {
    return (process: Parameters<ProcessLedger["track"]>[1]) => this.ledger.track(key, process);
  }

  register(api: string, targets: () => readonly ApiServerTarget[]): void {
    this.platforms.set(api, targets);
  }

  /**
   * Starts the reconcile loop. The first pass ends whatever a plane that did not stop cleanly (SIGKILL,
   * a crash) left running on this data: its API servers would hold the clusters' ports and answer
   * as them, and a later delete would not reach them.
   */
  start(): void {
    const tick = (first: boolean) => {
      if (this.closed) return;
      const leftovers = first ? this.endLeftovers() : Promise.resolve();
      this.pass = leftovers.then(() => this.reconcile()).catch((error: unknown) => this.log(`kubernetes: ${error instanceof Error ? error.message : String(error)}`));
      this.pass.then(() => {
        if (!this.closed) this.timer = setTimeout(() => tick(false), RECONCILE_INTERVAL_MS);
      });
    };
    tick(true);
  }

  private async endLeftovers(): Promise<void> {
    const killed = await this.ledger.killLeftovers();
    if (killed.length > 0) this.log(`kubernetes: ended ${killed.length} process(es) an earlier run of the plane left running (pids ${killed.join(", ")})`);
  }

  /**
   * Runs `change` (which replaces the clusters under the platforms: a saved plane loaded, a reset)
   * with every API server deleted first, its objects and folder too, and no pass running meanwhile;
   * the next pass starts the API servers the new clusters want.
   */
  async replaceWorld(change: () => void): Promise<void> {
    this.paused = true;
    try {
      await this.pass;
      for (const record of this.records()) await this.destroy(record);
      change();
    } finally {
      this.paused = false;
    }
  }

  isReady(key: string): boolean {
    return this.running.get(key)?.ready ?? false;
  }

  access(key: string): ApiServerAccess | undefined {
    const record = this.record(key);
    if (!record) return undefined;
    const cert = serverFiles(record.dir).cert;
    if (!existsSync(cert)) return undefined;
    return { server: `https://127.0.0.1:${record.port}`, certificateAuthorityData: readFileSync(cert).toString("base64") };
  }

  /** Every API server with its processes, for `/_local/kubernetes/api-servers` and the tests. */
  list(): ApiServerView[] {
    return this.records().map((r) => {
      const server = this.running.get(r.key);
      const pids = (server?.processes ?? []).filter((p) => p.alive && p.pid !== undefined).map((p) => p.pid as number);
      const state = !server ? "stopped" : server.ready ? "running" : server.apiServer.alive ? "starting" : "failed";
      const t = this.timing.get(r.key);
      return {
        key: r.key,
        port: r.port,
        prefix: r.prefix,
        state,
        pids,
        rssBytes: pids.reduce((sum, pid) => sum + rssOf(pid), 0),
        startedMs: t?.startedMs ?? 0,
        readyMs: t?.readyMs ?? 0,
      };
    });
  }

  /** The pid of kine while it runs. */
  kinePid(): number | undefined {
    return this.kineStarted?.process.alive ? this.kineStarted.process.pid : undefined;
  }

  private records(): ServerRecord[] {
    return this.opts.db.prepare("SELECT key, port, prefix, dir FROM kubernetes_api_servers ORDER BY key").all() as unknown as ServerRecord[];
  }

  private record(key: string): ServerRecord | undefined {
    return this.opts.db.prepare("SELECT key, port, prefix, dir FROM kubernetes_api_servers WHERE key = ?").get(key) as ServerRecord | undefined;
  }

  private async createRecord(key: string): Promise<ServerRecord> {
    // The port is chosen once and kept: kubeconfigs already handed out name it.
    const record: ServerRecord = { key, port: await freePort(), prefix: `/clusterform/${key}`, dir: path.join(this.root, key.replace(/[^A-Za-z0-9.-]/g, "_")) };
    this.opts.db
      .prepare("INSERT INTO kubernetes_api_servers (key, port, prefix, dir, created_ms) VALUES (?, ?, ?, ?, ?)")
      .run(record.key, record.port, record.prefix, record.dir, Date.now());
    return record;
  }

  private ensureKine(): Promise<RunningKine> {
    if (this.kineStarted && !this.kineStarted.process.alive) {
      // kine died: start a new one (on a new port) and restart every API server against it.
      this.log(`kubernetes: kine exited; restarting it and every API server (log: ${path.join(this.root, "kine.log")})`);
      this.kine = undefined;
      this.kineStarted = undefined;
      for (const [key, server] of this.running) {
        this.running.delete(key);
        void server.stop();
      }
    }
    this.kine ??= startKine(this.opts.binaries.kine, this.root, this.tracker("kine")).then((kine) => {
      this.kineStarted = kine;
      return kine;
    });
    // A failed start is tried again at the next pass.
    this.kine.catch(() => {
      this.kine = undefined;
    });
    return this.kine;
  }

  private async reconcile(): Promise<void> {
    if (this.paused) return;
    for (const [api, targets] of this.platforms) {
      let wanted: readonly ApiServerTarget[];
      try {
        wanted = targets();
      } catch (error) {
        this.log(`kubernetes: cannot list the ${api} clusters: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const keys = new Set(wanted.map((t) => t.key));
      for (const target of wanted) {
        if (this.closed) return;
        if (target.run) await this.ensureRunning(target);
        else await this.stopServer(target.key);
      }
      for (const record of this.records()) {
        if (record.key.startsWith(`${api}/`) && !keys.has(record.key)) await this.destroy(record);
      }
    }
  }

  private async ensureRunning(target: ApiServerTarget): Promise<void> {
    const current = this.running.get(target.key);
    if (current?.apiServer.alive) return;
    const t = this.timing.get(target.key);
    if (current && t && Date.now() - t.lastStartMs < RESTART_BACKOFF_MS) return;
    if (current) {
      this.log(`kubernetes: the API server of ${target.key} exited; restarting it (log: ${serverFiles(current.spec.dir).apiServerLog})`);
      // Its controller manager may still run: it must not outlive the server it belonged to.
      await current.stop();
    }
    const record = this.record(target.key) ?? (await this.createRecord(target.key));
    const kine = await this.ensureKine();
    const spec = { key: target.key, token: target.token, port: record.port, prefix: record.prefix, dir: record.dir, etcd: kine.endpoint };
    const server = new RunningApiServer(spec, this.opts.binaries, this.tracker(target.key));
    const startedMs = Date.now();
    this.running.set(target.key, server);
    this.timing.set(target.key, { startedMs, readyMs: 0, lastStartMs: startedMs });
    void server.whenReady.then((ok) => {
      const timing = this.timing.get(target.key);
      if (ok && timing && this.running.get(target.key) === server) timing.readyMs = Date.now();
    });
  }

  private async stopServer(key: string): Promise<void> {
    const server = this.running.get(key);
    if (!server) return;
    this.running.delete(key);
    await server.stop();
  }

  /** Stops the cluster's processes and deletes its objects in kine, its folder and its record. */
  private async destroy(record: ServerRecord): Promise<void> {
    await this.stopServer(record.key);
    // Anything of this cluster still running that this process did not start (or lost track of).
    await this.ledger.killLeftovers(record.key);
    this.timing.delete(record.key);
    const kineFile = path.join(this.root, KINE_DATABASE);
    if (existsSync(kineFile)) {
      // kine offers no range delete short of an etcd client; its table is plain SQLite and nothing
      // reads this prefix once its API server is gone.
      const db = new DatabaseSync(kineFile);
      try {
        db.exec("PRAGMA busy_timeout = 30000");
        const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kine'").get();
        if (hasTable) db.prepare("DELETE FROM kine WHERE substr(name, 1, ?) = ?").run(record.prefix.length + 1, `${record.prefix}/`);
      } finally {
        db.close();
      }
    }
    rmSync(record.dir, { recursive: true, force: true });
    this.opts.db.prepare("DELETE FROM kubernetes_api_servers WHERE key = ?").run(record.key);
  }

  /** Stops every API server, controller manager and kine; resolves when all have exited. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.pass;
    await Promise.all([...this.running.values()].map((s) => s.stop()));
    this.running.clear();
    if (this.kine) await (await this.kine.catch(() => undefined))?.process.stop();
  }
}
