import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";

const goodCluster = { clusterName: undefined, version: "1.30.10", controlPlane: { instanceType: "standard", count: 1 }, clusterTimeouts: undefined };
const goodPools = { pools: {} };
const cp = (extra: Record<string, unknown>) => ({ controlPlane: { instanceType: "standard", count: 1, ...extra } });
const pool = (spec: Record<string, unknown>) => ({ pools: { p: { instanceType: "standard", count: 1, ...spec } } });

/** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
const badInputs: [string, Record<string, unknown>, string, RegExp][] = [
  ["a cluster name with capitals and '_'", { clusterName: "Prod_Cluster" }, "name", /DNS-1123 label.*got "Prod_Cluster"/],
  ["a cluster name of 64 characters", { clusterName: "a".repeat(64) }, "name", /1 to 63 lowercase/],
  ["a version without a patch number", { version: "1.30" }, "kubernetesVersion", /MAJOR\.MINOR\.PATCH.*got "1\.30"/],
  ["a version that is a word", { version: "latest" }, "kubernetesVersion", /got "latest"/],
  ["a control-plane instance type that does not exist", cp({ instanceType: "huge" }), "controlPlane.instanceType", /one of "standard" or "gpu", got "huge"/],
  ["zero control-plane machines", cp({ count: 0 }), "controlPlane.count", /integer between 1 and 9, got 0/],
  ["a fractional control-plane count", cp({ count: 2.5 }), "controlPlane.count", /integer between 1 and 9, got 2\.5/],
  ["a label key with a space", cp({ labels: { "bad key": "x" } }), "controlPlane.labels", /label key/],
  ["a label value with spaces", cp({ labels: { app: "no spaces allowed" } }), "controlPlane.labels", /label value.*got "no spaces allowed"/],
  ["the reserved ownership label", cp({ labels: { "clusterform.dev/owner": "me" } }), "controlPlane.labels", /reserved/],
  ["a field cma-ssh does not have", cp({ zone: "eu-1" }), "controlPlane.zone", /is not a known field/],
  ["a timeout that is not a duration", { clusterTimeouts: { create: "soon" } }, "timeouts.create", /duration.*got "soon"/],
  ["a negative pool count", pool({ count: -1 }), "count", /integer between 0 and 1000, got -1/],
  ["a pool count above the limit", pool({ count: 1001 }), "count", /integer between 0 and 1000, got 1001/],
  ["a pool instance type that does not exist", pool({ instanceType: "tpu" }), "instanceType", /one of "standard" or "gpu", got "tpu"/],
  ["a pool name starting with '-'", pool({ name: "-pool" }), "name", /DNS-1123 label.*got "-pool"/],
  ["a pool label value of 64 characters", pool({ labels: { k: "v".repeat(64) } }), 'labels["k"]', /label value/],
  ["a pool timeout with words", pool({ timeouts: { delete: "10 minutes" } }), "timeouts.delete", /got "10 minutes"/],
];

describe("cma-ssh: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: CmasshStack;

  beforeAll(async () => {
    t = await openCmasshStack({ timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each(badInputs)("rejects %s", async (_what, change, field, reason) => {
    await t.configure({ ...goodCluster, ...goodPools, ...change });
    const since = await t.plane.lastSeq();
    const failure = await t.stack.preview().then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toBeDefined();
    // The reason starts with the field's whole path; Pulumi shows no `value {<nil>}` for nested fields.
    expect(failure).toMatch(new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[]`));
    expect(failure).not.toContain("<nil>");
    if (!/[.[]/.test(field)) expect(failure).toMatch(new RegExp(`property ${field} value \\{`));
    expect(failure).toMatch(reason);
    expect(await t.plane.audit(since)).toEqual([]);
  });

  it("rejects a Kubernetes version downgrade at preview, after the cluster exists", async () => {
    await t.configure({ ...goodCluster, ...goodPools });
    await t.stack.up();
    await t.configure({ version: "1.29.14" });
    const since = await t.plane.lastSeq();
    await expect(t.stack.preview()).rejects.toThrow(/kubernetesVersion cannot go down from 1\.30\.10 to 1\.29\.14/);
    expect(await t.plane.audit(since)).toEqual([]);
    await t.configure({ version: "1.30.10" });
    await t.stack.destroy();
  });

  it("fails an upgrade to a version the platform does not offer, listing the offered ones", async () => {
    await t.configure({ ...goodCluster, ...goodPools });
    await t.stack.up();
    await t.configure({ version: "1.40.0" });
    await expect(t.stack.up()).rejects.toThrow(/1\.40\.0 is not offered by the platform; offered: 1\.31\.6, 1\.32\.3, 1\.33\.1/);
    const state = await t.stack.exportState();
    const cluster = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("cmassh:Cluster"));
    expect(cluster?.inputs?.kubernetesVersion).toBe("1.30.10");
    await t.configure({ version: "1.30.10" });
    await t.stack.destroy();
  });
});
