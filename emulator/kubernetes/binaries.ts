import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

/** The Kubernetes release the set-up builds (scripts/setup/kubernetes.sh). */
export const KUBE_VERSION = "1.33.13";
/** The kine release the set-up builds. */
export const KINE_VERSION = "0.17.5";

/** The programs `--kubernetes` runs. */
export interface KubernetesBinaries {
  kubeApiserver: string;
  kubeControllerManager: string;
  kine: string;
}

/** Each binary: the environment variable the set-up exports, and its place in the set-up's cache. */
const WHERE: Readonly<Record<keyof KubernetesBinaries, { env: string; cached: string }>> = {
  kubeApiserver: { env: "CLUSTERFORM_KUBE_APISERVER", cached: `kube-apiserver-v${KUBE_VERSION}/kube-apiserver` },
  kubeControllerManager: { env: "CLUSTERFORM_KUBE_CONTROLLER_MANAGER", cached: `kube-apiserver-v${KUBE_VERSION}/kube-controller-manager` },
  kine: { env: "CLUSTERFORM_KINE", cached: `kine-v${KINE_VERSION}/kine` },
};

function cacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.CLUSTERFORM_CACHE ?? path.join(homedir(), ".cache", "clusterform"), "kubernetes");
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where the binaries are, or why they are not usable. */
export type BinariesLookup = { ok: true; binaries: KubernetesBinaries } | { ok: false; message: string };

/**
 * Finds kube-apiserver, kube-controller-manager and kine: the paths in the environment variables
 * the set-up exports, else the set-up's cache. The message names every missing program and how to
 * get it.
 */
export function findKubernetesBinaries(env: NodeJS.ProcessEnv = process.env): BinariesLookup {
  const found: Partial<KubernetesBinaries> = {};
  const missing: string[] = [];
  for (const [key, where] of Object.entries(WHERE) as [keyof KubernetesBinaries, (typeof WHERE)[keyof KubernetesBinaries]][]) {
    const file = env[where.env] || path.join(cacheDir(env), where.cached);
    if (executable(file)) found[key] = file;
    else missing.push(`${file} (or set ${where.env})`);
  }
  if (missing.length > 0) {
    return {
      ok: false,
      message: `Kubernetes binaries not found: ${missing.join(", ")}. Run \`. scripts/setup.sh\` to build kube-apiserver v${KUBE_VERSION} and kine v${KINE_VERSION} once per machine.`,
    };
  }
  return { ok: true, binaries: found as KubernetesBinaries };
}
