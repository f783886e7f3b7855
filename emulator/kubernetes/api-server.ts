import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as https from "node:https";
import * as path from "node:path";
import type { KubernetesBinaries } from "./binaries";
import { SupervisedProcess } from "./supervised-process";

/** The user every cluster's admin kubeconfig authenticates as (group system:masters). */
export const ADMIN_USER = "clusterform-admin";

/** The controllers the controller manager runs: enough for namespaces to delete and Deployments to roll out. */
const CONTROLLERS = ["namespace", "garbagecollector", "deployment", "replicaset", "serviceaccount", "serviceaccount-token", "clusterrole-aggregation"];

/** What one cluster's API server is started with. */
export interface ApiServerSpec {
  /** `<api>/<cluster id>`, for messages. */
  key: string;
  /** The cluster's admin bearer token (its kubeconfig's). A secret: written only to a 0600 file. */
  token: string;
  /** The fixed HTTPS port, kept across suspend, resume and restarts so stored kubeconfigs stay valid. */
  port: number;
  /** The kine key prefix holding this cluster's objects. */
  prefix: string;
  /** The folder with its certificates, keys and logs. */
  dir: string;
  /** kine's endpoint. */
  etcd: string;
}

/** The files of a cluster's folder. */
export function serverFiles(dir: string) {
  return {
    /** The serving certificate followed by the CA that signed it, written by kube-apiserver on first start. */
    cert: path.join(dir, "pki", "apiserver.crt"),
    tokens: path.join(dir, "tokens.csv"),
    serviceAccountKey: path.join(dir, "service-account.key"),
    controllerToken: path.join(dir, "controller-manager.token"),
    controllerKubeconfig: path.join(dir, "controller-manager.kubeconfig"),
    apiServerLog: path.join(dir, "kube-apiserver.log"),
    controllerLog: path.join(dir, "kube-controller-manager.log"),
  };
}

const SECRET_FILE = { mode: 0o600 } as const;

/** Creates the folder's keys on first use; rewrites the token file (the cluster's token is fixed). */
function prepare(spec: ApiServerSpec): ReturnType<typeof serverFiles> {
  const files = serverFiles(spec.dir);
  mkdirSync(path.join(spec.dir, "pki"), { recursive: true, mode: 0o700 });
  if (!existsSync(files.serviceAccountKey)) {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    writeFileSync(files.serviceAccountKey, privateKey.export({ type: "pkcs8", format: "pem" }), SECRET_FILE);
  }
  if (!existsSync(files.controllerToken)) writeFileSync(files.controllerToken, randomBytes(32).toString("hex"), SECRET_FILE);
  const controllerToken = readFileSync(files.controllerToken, "utf8");
  writeFileSync(
    files.tokens,
    `${spec.token},${ADMIN_USER},${ADMIN_USER},system:masters\n${controllerToken},system:kube-controller-manager,system:kube-controller-manager,system:masters\n`,
    SECRET_FILE,
  );
  return files;
}

function apiServerArgs(spec: ApiServerSpec, files: ReturnType<typeof serverFiles>): string[] {
  return [
    `--etcd-servers=${spec.etcd}`,
    `--etcd-prefix=${spec.prefix}`,
    "--bind-address=127.0.0.1",
    "--advertise-address=127.0.0.1",
    `--secure-port=${spec.port}`,
    // No TLS files given: kube-apiserver creates its own CA and serving certificate here on first start and reuses them.
    `--cert-dir=${path.dirname(files.cert)}`,
    `--token-auth-file=${files.tokens}`,
    "--anonymous-auth=false",
    "--authorization-mode=RBAC",
    `--service-account-key-file=${files.serviceAccountKey}`,
    `--service-account-signing-key-file=${files.serviceAccountKey}`,
    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
    "--service-cluster-ip-range=10.96.0.0/16",
    // Nothing else shares the kine: no lease-based endpoint bookkeeping, no flow control between clients.
    "--endpoint-reconciler-type=none",
    "--enable-priority-and-fairness=false",
    "--profiling=false",
  ];
}

function writeControllerKubeconfig(spec: ApiServerSpec, files: ReturnType<typeof serverFiles>): void {
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "local", cluster: { server: `https://127.0.0.1:${spec.port}`, "certificate-authority": files.cert } }],
    users: [{ name: "controller-manager", user: { tokenFile: files.controllerToken } }],
    contexts: [{ name: "local", context: { cluster: "local", user: "controller-manager" } }],
    "current-context": "local",
  };
  writeFileSync(files.controllerKubeconfig, JSON.stringify(doc), SECRET_FILE);
}

function controllerArgs(files: ReturnType<typeof serverFiles>): string[] {
  return [
    `--kubeconfig=${files.controllerKubeconfig}`,
    `--controllers=${CONTROLLERS.join(",")}`,
    "--leader-elect=false",
    // It serves nothing: 0 turns its HTTPS endpoint off.
    "--secure-port=0",
    `--service-account-private-key-file=${files.serviceAccountKey}`,
    `--root-ca-file=${files.cert}`,
    "--profiling=false",
  ];
}

/** GET /readyz with the admin token, trusting only the cluster's own CA: true on 200. */
export function probeReady(port: number, token: string, caFile: string): Promise<boolean> {
  if (!existsSync(caFile)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const req = https.get(
      { host: "127.0.0.1", port, path: "/readyz", ca: readFileSync(caFile), headers: { authorization: `Bearer ${token}` }, timeout: 2000 },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.once("error", () => resolve(false));
    req.once("timeout", () => req.destroy());
  });
}

/** How long a fresh API server may take to answer /readyz on a busy machine. */
export const READY_TIMEOUT_MS = 120_000;

/** One cluster's running API server and controller manager. */
export class RunningApiServer {
  readonly apiServer: SupervisedProcess;
  controllers: SupervisedProcess | undefined;
  ready = false;
  private stopping = false;
  /** Resolves true once /readyz answers 200, false if the process died or time ran out first. */
  readonly whenReady: Promise<boolean>;

  constructor(
    readonly spec: ApiServerSpec,
    private readonly binaries: KubernetesBinaries,
    /** Told of each process started for this cluster. @default none */
    private readonly onSpawn?: (process: SupervisedProcess) => void,
  ) {
    const files = prepare(spec);
    this.apiServer = new SupervisedProcess(`kube-apiserver ${spec.key}`, binaries.kubeApiserver, apiServerArgs(spec, files), files.apiServerLog, onSpawn);
    this.whenReady = this.awaitReady(files);
  }

  private async awaitReady(files: ReturnType<typeof serverFiles>): Promise<boolean> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (this.apiServer.alive && !this.stopping && Date.now() < deadline) {
      if (await probeReady(this.spec.port, this.spec.token, files.cert)) {
        writeControllerKubeconfig(this.spec, files);
        this.controllers = new SupervisedProcess(`kube-controller-manager ${this.spec.key}`, this.binaries.kubeControllerManager, controllerArgs(files), files.controllerLog, this.onSpawn);
        this.ready = true;
        return true;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    return false;
  }

  /** Every process of this cluster, alive or not. */
  get processes(): SupervisedProcess[] {
    return this.controllers ? [this.controllers, this.apiServer] : [this.apiServer];
  }

  /** Stops the controller manager, then the API server. */
  async stop(): Promise<void> {
    this.ready = false;
    this.stopping = true;
    await this.whenReady;
    for (const p of this.processes) await p.stop();
  }
}
