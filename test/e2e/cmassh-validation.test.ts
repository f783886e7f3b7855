import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupPreviews, ownErrorLines } from "../harness/bad-inputs";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";

const goodCluster = { clusterName: undefined, version: "1.30.10", controlPlane: { instanceType: "standard", count: 1 }, clusterTimeouts: undefined };
const goodPools = { pools: {} };
const cp = (extra: Record<string, unknown>) => ({ controlPlane: { instanceType: "standard", count: 1, ...extra } });
const pool = (spec: Record<string, unknown>) => ({ pools: { p: { instanceType: "standard", count: 1, ...spec } } });

/**
 * Bad inputs previewed together: the provider's check reports every failure of a resource at
 * once, but Pulumi stops at the first resource whose check fails (and a pool waits for its
 * cluster), so a group holds bad fields of one resource. Each input's message is told apart by its
 * field, or, for two bad labels of one map, by its reason.
 */
interface Group {
  /** The stack config of the group's preview. */
  config: Record<string, unknown>;
  /** The resource whose check fails. */
  resource: string;
  /** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
  inputs: [string, string, RegExp][];
}

const groups: Group[] = [
  {
    config: {
      clusterName: "Prod_Cluster",
      version: "1.30",
      ...cp({ instanceType: "huge", count: 0, labels: { "bad key": "x", app: "no spaces allowed" }, zone: "eu-1" }),
      clusterTimeouts: { create: "soon" },
    },
    resource: "main",
    inputs: [
      ["a cluster name with capitals and '_'", "name", /DNS-1123 label.*got "Prod_Cluster"/],
      ["a version without a patch number", "kubernetesVersion", /MAJOR\.MINOR\.PATCH.*got "1\.30"/],
      ["a control-plane instance type that does not exist", "controlPlane.instanceType", /one of "standard" or "gpu", got "huge"/],
      ["zero control-plane machines", "controlPlane.count", /integer between 1 and 9, got 0/],
      // Two bad labels of one map: their reasons tell them apart.
      ["a label key with a space", "controlPlane.labels", /label key/],
      ["a label value with spaces", "controlPlane.labels", /label value.*got "no spaces allowed"/],
      ["a field cma-ssh does not have", "controlPlane.zone", /is not a known field/],
      ["a timeout that is not a duration", "timeouts.create", /duration.*got "soon"/],
    ],
  },
  {
    config: { clusterName: "a".repeat(64), version: "latest", ...cp({ count: 2.5, labels: { "clusterform.dev/owner": "me" } }) },
    resource: "main",
    inputs: [
      ["a cluster name of 64 characters", "name", /1 to 63 lowercase/],
      ["a version that is a word", "kubernetesVersion", /got "latest"/],
      ["a fractional control-plane count", "controlPlane.count", /integer between 1 and 9, got 2\.5/],
      // Checked only once every label is well-formed.
      ["the reserved ownership label", "controlPlane.labels", /reserved/],
    ],
  },
  {
    config: pool({ count: -1, instanceType: "tpu", name: "-pool", labels: { k: "v".repeat(64) }, timeouts: { delete: "10 minutes" } }),
    resource: "p",
    inputs: [
      ["a negative pool count", "count", /integer between 0 and 1000, got -1/],
      ["a pool instance type that does not exist", "instanceType", /one of "standard" or "gpu", got "tpu"/],
      ["a pool name starting with '-'", "name", /DNS-1123 label.*got "-pool"/],
      ["a pool label value of 64 characters", 'labels["k"]', /label value/],
      ["a pool timeout with words", "timeouts.delete", /got "10 minutes"/],
    ],
  },
  {
    config: pool({ count: 1001 }),
    resource: "p",
    inputs: [["a pool count above the limit", "count", /integer between 0 and 1000, got 1001/]],
  },
];

const badInputs = groups.flatMap((group) => group.inputs.map(([what, field, reason]) => [what, group, field, reason] as const));

describe("cma-ssh: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: CmasshStack;

  beforeAll(async () => {
    t = await openCmasshStack({ timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  // The first `it` of a group runs its preview; the others of the group read the same result.
  const previewOf = groupPreviews<Group>(
    () => t,
    async (group) => {
      await t.configure({ ...goodCluster, ...goodPools, ...group.config });
    },
  );

  it.each(badInputs)("rejects %s", async (_what, group, field, reason) => {
    const { failure, calls } = await previewOf(group);
    expect(failure).toBeDefined();
    const named = new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[]`);
    // The reason starts with the field's whole path; Pulumi shows no `value {<nil>}` for nested fields.
    expect(failure).toMatch(named);
    expect(failure).not.toContain("<nil>");
    if (!/[.[]/.test(field)) expect(failure).toMatch(new RegExp(`property ${field} value \\{`));
    expect(failure).toMatch(reason);
    // The same on this input's own messages: those of the resource that name the field.
    const own = ownErrorLines(failure, group.resource, named);
    if (!/[.[]/.test(field)) expect(own).toMatch(new RegExp(`property ${field} value \\{`));
    expect(own).toMatch(reason);
    expect(calls).toEqual([]);
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
    await expect(t.stack.up()).rejects.toThrow(/1\.40\.0 is not offered by the platform; offered: 1\.30\.10, 1\.31\.6, 1\.32\.3, 1\.33\.1/);
    const state = await t.stack.exportState();
    const cluster = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("cmassh:Cluster"));
    expect(cluster?.inputs?.kubernetesVersion).toBe("1.30.10");
    await t.configure({ version: "1.30.10" });
    await t.stack.destroy();
  });
});
