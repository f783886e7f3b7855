import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writesSince } from "../../kinds/testing";
import { type AdapterPlane, auditSeq, startAdapterPlane } from "../testing";
import { type NativeServer, propsOf, secret, startNativeServer } from "./testing";
import { GET_MARKER } from "./tokens";

// The plugin's Invoke, over its real gRPC service in this process, as the engine calls a function
// (`clusterform:<platform>:get<Name>`): the core's lookups, reads only, secrets wrapped, Pulumi names.

let plane: AdapterPlane;
let server: NativeServer;
beforeAll(async () => {
  [plane, server] = await Promise.all([startAdapterPlane(), startNativeServer()]);
  const { cyclecloudPassword, senlinPassword, ...plain } = plane.settings;
  await server.newRun("readers", { ...plain, cyclecloudPassword: secret(cyclecloudPassword), senlinPassword: secret(senlinPassword) });
  await plane.t.cmassh.createCluster({ name: "prod", k8sVersion: "1.31.6", controlPlaneNodes: { instanceType: "standard", count: 1 } });
});
afterAll(async () => {
  server?.close();
  await plane?.close();
});

describe("native plugin Invoke", () => {
  it("answers getCluster with the cluster's fields, the kubeconfig a secret, writing nothing", async () => {
    const since = await auditSeq(plane.t);
    const reply = await server.invoke("clusterform:cmassh:getCluster", { name: "prod" });
    expect(reply.getFailuresList()).toEqual([]);
    const outputs = propsOf(reply.getReturn());
    expect(outputs).toMatchObject({ id: "prod", name: "prod", status: "RUNNING", kubeconfig: secret(expect.stringMatching(/^apiVersion: v1/)) });
    expect(await writesSince(plane.t, since)).toEqual([]);
  });

  it("reads the object of a static get (its marker input) as a state, without the import's marker or list of unreported inputs", async () => {
    const since = await auditSeq(plane.t);
    const urn = "urn:pulumi:readers::p::clusterform:cmassh:Cluster::seen";
    const reply = await server.read("prod", urn, { properties: { [GET_MARKER]: true }, inputs: { [GET_MARKER]: true } });
    const props = propsOf(reply.getProperties());
    expect(reply.getId()).toBe("prod");
    expect(props).toMatchObject({ name: "prod", status: "RUNNING", kubeconfig: secret(expect.stringMatching(/^apiVersion: v1/)) });
    expect(props).not.toHaveProperty("importUnreported");
    expect(await writesSince(plane.t, since)).toEqual([]);
  });

  it("answers getVersions with the catalogue and its newest", async () => {
    const outputs = propsOf((await server.invoke("clusterform:cmassh:getVersions", {})).getReturn());
    expect(outputs.newest).toBe((outputs.versions as string[]).at(-1));
    expect((outputs.versions as string[]).length).toBeGreaterThan(1);
  });

  it("answers a list lookup with no match as an empty list", async () => {
    const outputs = propsOf((await server.invoke("clusterform:peloton:getStatelessJobs", { owner: "nobody" })).getReturn());
    expect(outputs).toEqual({ statelessJobs: [] });
  });

  it("fails a missing object naming the kind, the key and the endpoint", async () => {
    const err = await server.invoke("clusterform:cmassh:getCluster", { name: "gone" }).catch((e: Error) => e);
    expect(String((err as Error).message)).toContain(`looking up cmassh:Cluster name "gone": NOT_FOUND: no such object at the cmassh endpoint ${plane.t.plane.url}`);
  });

  it("returns bad arguments as failures naming the argument, and refuses an unknown function naming the platform's", async () => {
    const reply = await server.invoke("clusterform:peloton:getResourcePool", {});
    expect(reply.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["id", "give exactly one of `id` or `path`, got 0"]]);
    const err = await server.invoke("clusterform:cmassh:getNothing", {}).catch((e: Error) => e);
    expect(String((err as Error).message)).toContain('unknown function "clusterform:cmassh:getNothing"; this plugin serves: clusterform:cmassh:getCluster');
  });
});
