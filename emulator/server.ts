import * as http from "node:http";
import * as http2 from "node:http2";
import type * as net from "node:net";
import { createAdminHandler } from "./admin";
import { type AuditLog, assertAuditRetention, createAuditLog, DEFAULT_AUDIT_RETENTION } from "./audit";
import { createCallPipeline } from "./calls";
import { assertChaosSeed } from "./chaos";
import { withResettableConnection } from "./connection-reset";
import { type Clock, systemClock } from "./clock";
import { openDatabase } from "./database";
import { createConsoleRoutes } from "./console/console-routes";
import { BUILT_IN_ACTIONS, FaultRegistry } from "./faults";
import { type HttpRequest, type HttpResponse, type RouteHandler, sendJson } from "./http-json";
import { findKubernetesBinaries } from "./kubernetes/binaries";
import { LocalKubernetes } from "./kubernetes/host";
import { kubernetesViews } from "./kubernetes/admin-view";
import { createMultiplexedListener } from "./listener";
import type { MountedPlatform, PlatformModule } from "./platform";
import { PLATFORMS } from "./platforms";
import { createRpcHandler } from "./rpc-serving";
import { applySeed, shiftableClock } from "./seed/run-seed";
import { readSeedFile } from "./seed/seed-file";
import { createWorld } from "./world";

/** Options of {@link startLocalControlPlane}. */
export interface LocalControlPlaneOptions {
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** TCP port; 0 picks a free one. @default 9020 (cma-ssh's own default) */
  port?: number;
  /** Directory holding `state.db`; created if missing. State survives restarts with the same directory. */
  dataDir: string;
  /** Multiplies every simulated operation duration; 0 makes operations end at once. @default 1 */
  timeScale?: number;
  /** Kubernetes versions cma-ssh offers for upgrades (`x.y.z`). @default ["1.28.15", "1.29.14", "1.30.10", "1.31.6", "1.32.3", "1.33.1"] */
  cmasshVersions?: string[];
  /** Each platform's own options by API name, e.g. `{ cmassh: { versions: [...] } }`. @default {} */
  platformOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The audit log keeps this many newest entries (an integer >= 1) and deletes older ones in batches. @default DEFAULT_AUDIT_RETENTION (100,000) */
  auditRetention?: number;
  /** Source of time; tests may pass a fake clock. @default the system clock */
  clock?: Clock;
  /**
   * Give every cma-ssh cluster and vcluster that reaches RUNNING a real kube-apiserver (with kine as
   * storage), named by its kubeconfig. Needs the binaries the set-up builds. @default false
   */
  kubernetes?: boolean;
  /**
   * Seed of the random source behind probabilistic faults (an integer from 0 to 2^32 - 1): the same
   * seed and faults make the same decisions for the same calls, so a failing run can be replayed.
   * @default a random seed, reported by `GET /_local/faults`
   */
  chaosSeed?: number;
  /**
   * A seed file (YAML or JSON, docs/local-plane.md#seeds): its objects exist from the start, settled,
   * before any program runs; a reset puts them back. Checked before anything starts: a bad file
   * fails the start naming the file, the field and what is allowed. @default none
   */
  seedFile?: string;
  /** Serve the web console at `/`. @default true */
  console?: boolean;
}

/** A running local control plane. */
export interface LocalControlPlane {
  /** Base URL, e.g. `http://127.0.0.1:9020`; gRPC, REST and the admin API all live under it. */
  url: string;
  /** The bound TCP port. */
  port: number;
  /** Closes every connection and the database. */
  close(): Promise<void>;
}

/** Each platform's options: `platformOptions`, plus `cmasshVersions` for cma-ssh. */
function optionsOf(opts: LocalControlPlaneOptions, module: PlatformModule): Readonly<Record<string, unknown>> {
  const own = opts.platformOptions?.[module.api] ?? {};
  return module.api === "cmassh" && opts.cmasshVersions ? { ...own, versions: opts.cmasshVersions } : own;
}

function validateOptions(opts: LocalControlPlaneOptions): void {
  const { port = 9020, timeScale = 1 } = opts;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`invalid port ${port}: expected an integer from 0 to 65535`);
  }
  if (!Number.isFinite(timeScale) || timeScale < 0) {
    throw new RangeError(`invalid timeScale ${timeScale}: expected a finite number >= 0`);
  }
  if (opts.auditRetention !== undefined) assertAuditRetention(opts.auditRetention);
  if (opts.chaosSeed !== undefined) assertChaosSeed(opts.chaosSeed);
  for (const module of PLATFORMS) module.validateOptions?.(optionsOf(opts, module));
}

function createHttpHandler(handlers: readonly RouteHandler[]): (req: HttpRequest, res: HttpResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const run = async (): Promise<void> => {
      for (const handler of handlers) if (await handler(req, res, url)) return;
      sendJson(res, 404, { error: `no route for ${req.method} ${url.pathname}` });
    };
    run().catch((error: unknown) => {
      sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  };
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}

/**
 * Starts the local control plane: one TCP port serving every platform of `PLATFORMS` (gRPC over
 * h2c, REST over HTTP/1.1) and the admin API under `/_local/`.
 */
export async function startLocalControlPlane(opts: LocalControlPlaneOptions): Promise<LocalControlPlane> {
  validateOptions(opts);
  const host = opts.host ?? "127.0.0.1";
  // Seed files are read and checked before anything starts: a bad one fails here, naming the field.
  const seedSections = opts.seedFile === undefined ? undefined : readSeedFile(opts.seedFile, PLATFORMS);
  // A seed runs with the clock moved back, so its objects read as settled once it is done.
  const clock = shiftableClock(opts.clock ?? systemClock);
  const binaries = opts.kubernetes ? findKubernetesBinaries() : undefined;
  if (binaries && !binaries.ok) throw new Error(binaries.message);
  const db = openDatabase(opts.dataDir);
  const kubernetes = binaries?.ok ? new LocalKubernetes({ db, dataDir: opts.dataDir, binaries: binaries.binaries }) : undefined;
  const audit = createAuditLog(db, { retention: opts.auditRetention ?? DEFAULT_AUDIT_RETENTION });
  const faults = new FaultRegistry(opts.chaosSeed);
  let quiet = false;
  // Seeded objects were made by no one's call: the seed's own calls are not audited.
  const pipelineAudit: AuditLog = { ...audit, record: (entry) => (quiet ? { seq: 0, ...entry } : audit.record(entry)) };
  const pipeline = createCallPipeline({ audit: pipelineAudit, faults, clock });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let baseUrl = "";
  const mounted: MountedPlatform[] = PLATFORMS.map((module) => {
    db.exec(module.schema);
    const options = optionsOf(opts, module);
    return module.start({ db, clock, timeScale: opts.timeScale ?? 1, pipeline, faults, options, baseUrl: () => baseUrl, kubernetes });
  });
  kubernetes?.start();
  const seed = seedSections && opts.seedFile !== undefined
    ? () => applySeed({ file: opts.seedFile!, sections: seedSections, modules: PLATFORMS, baseUrl, db, clock, timeScale: opts.timeScale ?? 1, quiet: (on) => { quiet = on; } })
    : undefined;
  const world = createWorld({ db, clock, audit, faults, mounted, kubernetes, reseed: seed });
  const knownOperations = Object.fromEntries(PLATFORMS.map((m) => [m.api, m.operations]));
  const extraActions = PLATFORMS.flatMap((m) => m.faultActions ?? []);
  const admin = createAdminHandler({
    world,
    audit,
    faults,
    knownOperations,
    extraActions,
    views: Object.assign({}, ...mounted.map((m) => m.views ?? {}), kubernetes ? kubernetesViews(kubernetes) : {}),
    actions: Object.assign({}, ...mounted.map((m) => m.actions ?? {})),
  });
  const views = Object.assign({}, ...mounted.map((m) => m.views ?? {}), kubernetes ? kubernetesViews(kubernetes) : {});
  const actions = Object.assign({}, ...mounted.map((m) => m.actions ?? {}));
  const webConsole =
    opts.console === false
      ? undefined
      : createConsoleRoutes({ views, actions, world, faults, audit, operations: knownOperations, faultActions: [...BUILT_IN_ACTIONS, ...extraActions], now: () => clock.now() });
  const httpHandler = createHttpHandler([...(webConsole ? [webConsole.handler] : []), admin, ...mounted.flatMap((m) => (m.http ? [m.http] : []))]);
  const handler = createRpcHandler({
    routes: (router) => {
      for (const m of mounted) m.registerGrpc?.(router);
    },
    fallback: (req, res) => httpHandler(req, res as HttpResponse),
  });
  const resettable = (req: HttpRequest, res: http.ServerResponse | http2.Http2ServerResponse) => withResettableConnection(req, () => handler(req as never, res as never));
  const listener = createMultiplexedListener({ http1: http.createServer(resettable), http2: http2.createServer(resettable) });
  let port: number;
  try {
    port = await listen(listener.server, opts.port ?? 9020, host);
  } catch (error) {
    await Promise.all(mounted.map((m) => m.close?.()));
    await kubernetes?.close();
    db.close();
    throw error;
  }
  baseUrl = `http://${urlHost}:${port}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    webConsole?.close();
    closing ??= listener
      .close()
      .then(() => Promise.all(mounted.map((m) => m.close?.())))
      // Every API server, controller manager and kine exits before close resolves.
      .then(() => kubernetes?.close())
      .then(() => db.close());
    return closing;
  };
  if (seed) {
    try {
      await seed();
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { url: baseUrl, port, close };
}
