import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { cmasshCluster } from "./kind";

const clusterHandler = testHandler(cmasshCluster);
const clusterImport = testImporter(cmasshCluster);

let t: TestPlane;
let config: ConfigReader;
let created: Record<string, unknown>;
let id: string;
let outs: Record<string, unknown>;
// One plane and one cluster for the file: a create waits out cma-ssh's settling time.
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await clusterHandler.configure(config);
  created = (await clusterHandler.check({}, raw)).inputs;
  ({ id, outs } = await clusterHandler.create(created));
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

const raw = {
  __provider: "p",
  owner: "0123456789abcdef",
  resourceName: "prod",
  name: "prod-eu",
  kubernetesVersion: "1.31.6",
  controlPlane: { instanceType: "standard", count: 1, labels: { tier: "cp" } },
};

describe("cmassh:Cluster import", () => {
  it("imports a cluster by name with only reads; version and control plane come from the program", async () => {
    const result = await importRoundTrip({ t, config, handler: clusterHandler, importer: clusterImport, id, created });
    expect(result.inputs).toEqual({ name: "prod-eu", autoNamed: false, owner: "fedcba9876543210", resourceName: "imported" });
    expect(result.props).toMatchObject({ status: "RUNNING", kubeconfig: outs.kubeconfig, importUnreported: ["kubernetesVersion", "controlPlane"] });
    expect(result.props.kubeconfig).toMatch(/^apiVersion: v1/);
  });

  it("plans the upgrade when the program's version differs from the old inputs once they are known", async () => {
    const { props, inputs } = await clusterImport.importObject(id, { owner: "o", resourceName: "imported" }, config);
    // A native plugin merges the Diff request's old inputs (the program's, after the first preview) over the state.
    const olds = { ...props, ...inputs, kubernetesVersion: "1.31.6", controlPlane: raw.controlPlane };
    const news = { ...inputs, kubernetesVersion: "1.32.3", controlPlane: raw.controlPlane, __provider: "p" };
    expect(await clusterHandler.diff(id, olds, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    // Straight after the import (no old inputs yet) the same program plans nothing.
    expect(await clusterHandler.diff(id, props, { ...news, kubernetesVersion: "1.31.6" })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("fails clearly on a wrong-shaped id, a cluster that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: clusterHandler, importer: clusterImport }, "Prod_EU", "nope");
  });
});
