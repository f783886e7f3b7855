import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack, type RunResult } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { repoRoot } from "../harness/paths";
import { installProviderPlugins } from "../harness/plugins";
import { clusterformTarball, installWorkspace, packPackage } from "../harness/workspace";

// The examples examples/vcluster and examples/cmassh-workloads, unchanged, on one plane started with
// --kubernetes: one vcluster and one cma-ssh cluster, each with a real API server that
// @pulumi/kubernetes deploys to and kubectl then reads.
const run = promisify(execFile);
const kubectlBinary = process.env.CLUSTERFORM_KUBECTL ?? "kubectl";

interface ApiServers {
  kinePid: number;
  apiServers: { key: string; state: string; pids: number[] }[];
}

/** Copies an example into the workspace, whose node_modules has the packages it imports. */
function copyExample(workspace: string, example: string): string {
  const dest = mkdtempSync(path.join(workspace, `${example}-`));
  for (const file of ["Pulumi.yaml", "index.ts", "tsconfig.json", "package.json"]) cpSync(path.join(repoRoot(), "examples", example, file), path.join(dest, file));
  // A Pulumi.yaml that names node_modules/clusterform/plugin (the lookups) finds it as after `npm install` in the folder.
  symlinkSync(path.join(workspace, "node_modules"), path.join(dest, "node_modules"));
  return dest;
}

/** The stack's kubeconfig output (secret; the Automation API reads it decrypted). */
async function kubeconfigOf(stack: EngineStack): Promise<string> {
  const output = (await stack.stack.outputs()).kubeconfig;
  expect(output?.secret).toBe(true);
  if (typeof output?.value !== "string" || output.value === "") throw new Error("the stack has no kubeconfig output");
  return output.value;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("@pulumi/kubernetes on the local clusters' API servers (clusterform-local --kubernetes)", () => {
  let plane: LocalPlane;
  let vc: EngineStack;
  let cm: EngineStack;
  let workspace: string;
  const kubeconfigFiles: Record<"vcluster" | "cmassh", string> = { vcluster: "", cmassh: "" };
  const kubectl = async (cluster: keyof typeof kubeconfigFiles, ...args: string[]) =>
    (await run(kubectlBinary, ["--kubeconfig", kubeconfigFiles[cluster], "--request-timeout=20s", ...args])).stdout;

  beforeAll(async () => {
    const k8sPackage = packPackage(path.join(repoRoot(), "node_modules", "@pulumi", "kubernetes"), "pulumi-kubernetes");
    workspace = installWorkspace("kubernetes", { clusterform: clusterformTarball(), "@pulumi/kubernetes": k8sPackage });
    installProviderPlugins(["kubernetes"]);
    plane = await startLocalPlane({ workspace, timeScale: 0.1, flags: ["--kubernetes"] });
    const endpoint = { "clusterform:endpoint": { value: plane.url } };
    [vc, cm] = await Promise.all([
      openStack({ programDir: copyExample(workspace, "vcluster"), config: { ...endpoint, "clusterform-vcluster:appReplicas": { value: "0" } } }),
      openStack({ programDir: copyExample(workspace, "cmassh-workloads"), config: { ...endpoint, "clusterform-cmassh-workloads:appReplicas": { value: "0" } } }),
    ]);
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("creates each cluster, then a namespace, a config map and a deployment in it that kubectl sees", async () => {
    const [vcUp, cmUp] = await Promise.all([vc.up(), cm.up()]);
    const created = (r: RunResult) => changingSteps(r).map((s) => `${s.op} ${s.type}`);
    expect(created(vcUp)).toEqual(
      expect.arrayContaining(["create kubernetes:core/v1:Namespace", "create kubernetes:core/v1:ConfigMap", "create kubernetes:apps/v1:Deployment"]),
    );
    expect(created(cmUp)).toEqual(
      expect.arrayContaining(["create kubernetes:core/v1:Namespace", "create kubernetes:core/v1:ConfigMap", "create kubernetes:apps/v1:Deployment"]),
    );
    for (const [cluster, stack] of [
      ["vcluster", vc],
      ["cmassh", cm],
    ] as const) {
      kubeconfigFiles[cluster] = path.join(workspace, `${cluster}-${process.pid}.kubeconfig`);
      writeFileSync(kubeconfigFiles[cluster], await kubeconfigOf(stack), { mode: 0o600 });
    }
    expect(await kubectl("vcluster", "get", "deployment", "storefront", "-n", "storefront", "-o", "jsonpath={.metadata.name}")).toBe("storefront");
    expect(await kubectl("vcluster", "get", "configmap", "storefront-settings", "-n", "storefront", "-o", "jsonpath={.data.phase}")).toBe("RUNNING");
    expect(await kubectl("cmassh", "get", "deployment", "payments-api", "-n", "payments", "-o", "jsonpath={.spec.template.spec.containers[0].image}")).toBe("nginx:1.27");
    expect(await kubectl("cmassh", "get", "configmap", "payments-settings", "-n", "payments", "-o", "jsonpath={.data.status}")).toBe("RUNNING");
    // The deployment controller runs: the Deployment has its ReplicaSet.
    expect(await kubectl("cmassh", "get", "replicasets", "-n", "payments", "-o", "name")).toMatch(/replicaset\.apps\/payments-api-/);
  });

  it("keeps the two clusters apart: each sees only its own namespace", async () => {
    const vcNamespaces = await kubectl("vcluster", "get", "namespaces", "-o", "name");
    const cmNamespaces = await kubectl("cmassh", "get", "namespaces", "-o", "name");
    expect(vcNamespaces).toContain("namespace/storefront");
    expect(vcNamespaces).not.toContain("namespace/payments");
    expect(cmNamespaces).toContain("namespace/payments");
    expect(cmNamespaces).not.toContain("namespace/storefront");
  });

  it("previews nothing after up", async () => {
    const [vcPreview, cmPreview] = await Promise.all([vc.preview(), cm.preview()]);
    expect(changingSteps(vcPreview)).toEqual([]);
    expect(changingSteps(cmPreview)).toEqual([]);
  });

  it("destroys the workloads before the cluster, and the cluster's API server is gone afterwards", async () => {
    const before = await plane.admin<ApiServers>("/_local/kubernetes/api-servers");
    expect(before.apiServers.map((s) => s.state)).toEqual(["running", "running"]);
    const [vcDown, cmDown] = await Promise.all([vc.destroy(), cm.destroy()]);
    for (const [result, clusterKind] of [
      [vcDown, "vcluster:VCluster"],
      [cmDown, "cmassh:Cluster"],
    ] as const) {
      const order = result.steps.filter((s) => s.op === "delete").map((s) => s.type);
      // The package's type tokens end in <platform>:<Kind> (pulumi-nodejs:dynamic/vcluster:VCluster today).
      const clusterAt = order.findIndex((type) => type.endsWith(clusterKind));
      expect(clusterAt).toBeGreaterThanOrEqual(0);
      for (const workload of ["kubernetes:apps/v1:Deployment", "kubernetes:core/v1:ConfigMap", "kubernetes:core/v1:Namespace"]) {
        expect(order.indexOf(workload)).toBeGreaterThanOrEqual(0);
        expect(order.indexOf(workload)).toBeLessThan(clusterAt);
      }
    }
    const deadline = Date.now() + 30_000;
    let after = await plane.admin<ApiServers>("/_local/kubernetes/api-servers");
    while (after.apiServers.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      after = await plane.admin<ApiServers>("/_local/kubernetes/api-servers");
    }
    expect(after.apiServers).toEqual([]);
    expect(before.apiServers.flatMap((s) => s.pids).filter(alive)).toEqual([]);
  });
});
