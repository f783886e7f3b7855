import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allKinds } from "../../kinds";
import { writesSince } from "../../kinds/testing";
import { type AdapterPlane, auditSeq, startAdapterPlane } from "../testing";
import { buildDataSources, dataSourceName } from "./data-sources";
import { configOf, decodedValue, dv, errorsOf, startTofuProvider, type TofuProvider } from "./testing";

// The provider's data sources over its tfplugin6 service, called as tofu calls them (ReadDataSource
// with the configuration), against the local control plane.

let plane: AdapterPlane;
let p: TofuProvider;
beforeAll(async () => {
  plane = await startAdapterPlane();
  p = await startTofuProvider(Object.fromEntries(Object.entries(plane.settings).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v])));
  await plane.t.cmassh.createCluster({ name: "prod", k8sVersion: "1.31.6", controlPlaneNodes: { instanceType: "standard", count: 1 } });
});
afterAll(async () => {
  await plane?.close();
});

async function readData(name: string, values: Record<string, unknown>) {
  const schema = p.dataSchemaOf(name);
  const since = await auditSeq(plane.t);
  const answer = await p.client.readDataSource({ typeName: name, config: dv(schema, configOf(schema, values as never)) });
  expect(await writesSince(plane.t, since)).toEqual([]);
  return { state: decodedValue(schema, answer.state), errors: errorsOf(answer.diagnostics) };
}

describe("data sources", () => {
  it("names one data source per lookup, from the lookup's name", async () => {
    const names = [...buildDataSources(await allKinds()).keys()];
    expect(names).toEqual(expect.arrayContaining(["clusterform_cmassh_cluster", "clusterform_cmassh_versions", "clusterform_cmassh_cluster_upgrades", "clusterform_vcluster_vclusters", "clusterform_senlin_profile_types"]));
    expect(dataSourceName("vcluster", "getVCluster")).toBe("clusterform_vcluster_vcluster");
    const metadata = await p.client.getMetadata({});
    expect(metadata.dataSources.map((d) => d.typeName).sort()).toEqual([...names].sort());
  });

  it("reads a cma-ssh cluster by name: the kubeconfig sensitive in the schema", async () => {
    const schema = (await p.client.getProviderSchema({})).dataSourceSchemas.clusterform_cmassh_cluster.block!;
    expect(schema.attributes.find((a) => a.name === "kubeconfig")).toMatchObject({ computed: true, sensitive: true });
    expect(schema.attributes.find((a) => a.name === "name")).toMatchObject({ required: true, computed: false });
    const { state, errors } = await readData("clusterform_cmassh_cluster", { name: "prod" });
    expect(errors).toEqual([]);
    expect(state).toMatchObject({ id: "prod", name: "prod", status: "RUNNING", kubeconfig: expect.stringMatching(/^apiVersion: v1/) });
  });

  it("reads the versions a new cluster can take and the newest", async () => {
    const { state } = await readData("clusterform_cmassh_versions", {});
    const versions = (state?.versions ?? []) as string[];
    expect(versions.length).toBeGreaterThan(1);
    expect(state?.newest).toBe(versions.at(-1));
  });

  it("fails a missing object naming the kind, the key and the endpoint; a list with no match is empty", async () => {
    const { errors } = await readData("clusterform_cmassh_cluster", { name: "gone" });
    expect(errors.map((e) => e.summary)).toEqual([`looking up cmassh:Cluster name "gone": NOT_FOUND: no such object at the cmassh endpoint ${plane.t.plane.url}`]);
    const { state } = await readData("clusterform_vcluster_vclusters", { namespace: "nobody" });
    expect(state?.vclusters).toEqual([]);
  });

  it("points a bad argument at its attribute", async () => {
    const { errors } = await readData("clusterform_peloton_resource_pool", { id: null, path: null });
    expect(errors).toEqual([{ summary: "Invalid id", detail: "give exactly one of `id` or `path`, got 0", attribute: "id" }]);
  });
});
