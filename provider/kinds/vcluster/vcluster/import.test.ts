import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { vclusterClient } from "../common";
import { vclusterVCluster } from "./kind";

const vclusterHandler = testHandler(vclusterVCluster);
const vclusterImport = testImporter(vclusterVCluster);

let t: TestPlane;
let config: ConfigReader;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await vclusterHandler.configure(config);
});
afterAll(async () => {
  (await vclusterClient(config)).close();
  await t.close();
  removeDataDirs();
});

const identity = { __provider: "p", owner: "0123456789abcdef", resourceName: "dev" };
/** What the server fills in when a create leaves them out. */
const SERVER_DEFAULTS = { kubernetesVersion: "1.28.0", distro: "k3s", replicas: 1 };

describe("vcluster:VCluster import", () => {
  it("imports a vcluster by id with only reads, its spec, labels, owner and project reported", async () => {
    const created = (
      await vclusterHandler.check({}, {
        ...identity,
        name: "dev",
        namespace: "team-a",
        kubernetesVersion: "1.29.2",
        distro: "k8s",
        replicas: 3,
        enableHa: true,
        helmValues: "syncer:\n  extraArgs: []\n",
        resources: { cpuLimit: "2", memoryLimit: "4Gi" },
        network: { podCidr: "10.10.0.0/16", enableNetworkPolicies: true, dns: { nameservers: ["10.0.0.10"] } },
        sync: { syncIngresses: true },
        labels: { env: "dev" },
        vclusterOwner: "alice",
        project: "web",
      })
    ).inputs;
    const { id, outs } = await vclusterHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: vclusterHandler, importer: vclusterImport, id, created });
    expect(result.props).toMatchObject({ vclusterId: id, phase: "RUNNING", kubeconfig: outs.kubeconfig });
    expect(result.props.kubeconfig).toMatch(/^apiVersion: v1/);
  });

  it("imports a vcluster created with only a name to that name and the server's defaults", async () => {
    const { id } = await vclusterHandler.create((await vclusterHandler.check({}, { ...identity, name: "bare", namespace: "team-a" })).inputs);
    const created = (await vclusterHandler.check({}, { ...identity, name: "bare", namespace: "team-a", ...SERVER_DEFAULTS })).inputs;
    const result = await importRoundTrip({ t, config, handler: vclusterHandler, importer: vclusterImport, id, created });
    expect(result.inputs).toEqual({ name: "bare", namespace: "team-a", autoNamed: false, ...SERVER_DEFAULTS, owner: "fedcba9876543210", resourceName: "imported" });
  });

  it("imports a suspended vcluster with suspended: true", async () => {
    const created = (await vclusterHandler.check({}, { ...identity, name: "idle", namespace: "team-b", ...SERVER_DEFAULTS, suspended: true })).inputs;
    const { id } = await vclusterHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: vclusterHandler, importer: vclusterImport, id, created });
    expect(result.inputs.suspended).toBe(true);
    expect(result.props.phase).toBe("SUSPENDED");
  });

  it("fails clearly on a wrong-shaped id, a vcluster that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: vclusterHandler, importer: vclusterImport }, "team-a/dev", "vc-0-0");
  });
});
