import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { cmasshCluster } from "./kind";
import { testHandler } from "../../testing";

const clusterHandler = testHandler(cmasshCluster);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';
const OWNER = "0123456789abcdef";
const DERIVED = expect.stringMatching(/^prod-[0-9a-f]{7}$/);

/** What the SDK sends for `new cmassh.Cluster("prod", { kubernetesVersion, controlPlane })`. */
const raw: Props = {
  __provider: PROVIDER,
  owner: OWNER,
  resourceName: "prod",
  kubernetesVersion: "1.31.6",
  controlPlane: { instanceType: "standard", count: 1 },
};
const cp = (patch: Props): Props => ({ controlPlane: { instanceType: "standard", count: 1, ...patch } });

const DNS = "must be a DNS-1123 label: 1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got";
const SEMVER = 'must be a version MAJOR.MINOR.PATCH such as "1.13.4" (a leading "v" is allowed), got';
const KEY =
  'must be a Kubernetes label key: an optional DNS subdomain prefix of at most 253 characters and "/", then a name of 1 to 63 letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit';
const VALUE =
  "must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, got";
const DURATION = 'must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got';
const COUNT = "controlPlane.count must be an integer between 1 and 9, got";

describe("clusterHandler.check", () => {
  it.each<[string, Props, Props]>([
    ["derives a name and marks it derived", {}, { name: DERIVED, autoNamed: true }],
    ['strips the leading "v" of a version', { kubernetesVersion: "v1.31.6" }, { kubernetesVersion: "1.31.6", name: DERIVED, autoNamed: true }],
    ["keeps a user-chosen name", { name: "prod-eu" }, { name: "prod-eu", autoNamed: false }],
    [
      "keeps labels and trims timeouts",
      { ...cp({ labels: { app: "web", "example.com/tier": "" } }), timeouts: { create: " 2s ", delete: "1h30m" } },
      { ...cp({ labels: { app: "web", "example.com/tier": "" } }), timeouts: { create: "2s", delete: "1h30m" }, name: DERIVED, autoNamed: true },
    ],
    ["accepts the largest control plane", cp({ instanceType: "gpu", count: 9 }), { ...cp({ instanceType: "gpu", count: 9 }), name: DERIVED, autoNamed: true }],
    ["accepts a 63-character name", { name: "a".repeat(63) }, { name: "a".repeat(63), autoNamed: false }],
  ])("%s", async (_, patch, filled) => {
    expect(await clusterHandler.check({}, { ...raw, ...patch })).toEqual({
      inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER },
      failures: [],
    });
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a name with capitals and '_'", { name: "Prod_Cluster" }, [{ property: "name", reason: `name ${DNS} "Prod_Cluster"` }]],
    ["a 64-character name", { name: "a".repeat(64) }, [{ property: "name", reason: `name ${DNS} "${"a".repeat(64)}"` }]],
    ["an empty name", { name: "" }, [{ property: "name", reason: `name ${DNS} ""` }]],
    ["a name starting with '-'", { name: "-prod" }, [{ property: "name", reason: `name ${DNS} "-prod"` }]],
    ["a version without a patch number", { kubernetesVersion: "1.30" }, [{ property: "kubernetesVersion", reason: `kubernetesVersion ${SEMVER} "1.30"` }]],
    ["a version that is a word", { kubernetesVersion: "latest" }, [{ property: "kubernetesVersion", reason: `kubernetesVersion ${SEMVER} "latest"` }]],
    ["a version given as a number", { kubernetesVersion: 1.3 }, [{ property: "kubernetesVersion", reason: `kubernetesVersion ${SEMVER} 1.3` }]],
    ["a missing version", { kubernetesVersion: undefined }, [{ property: "kubernetesVersion", reason: "kubernetesVersion is required" }]],
    ["a missing control plane", { controlPlane: undefined }, [{ property: "controlPlane", reason: "controlPlane is required" }]],
    ["a control plane given as a string", { controlPlane: "standard" }, [{ property: "controlPlane", reason: 'controlPlane must be an object, got "standard"' }]],
    [
      "an instance type that does not exist",
      cp({ instanceType: "huge" }),
      [{ property: "", reason: 'controlPlane.instanceType must be one of "standard" or "gpu", got "huge"' }],
    ],
    ["zero control-plane machines", cp({ count: 0 }), [{ property: "", reason: `${COUNT} 0` }]],
    ["ten control-plane machines", cp({ count: 10 }), [{ property: "", reason: `${COUNT} 10` }]],
    ["a fractional count", cp({ count: 2.5 }), [{ property: "", reason: `${COUNT} 2.5` }]],
    ["a count given as a string", cp({ count: "3" }), [{ property: "", reason: `${COUNT} "3"` }]],
    [
      "a label key with a space",
      cp({ labels: { "bad key": "x" } }),
      [{ property: "", reason: `controlPlane.labels key "bad key" ${KEY}` }],
    ],
    [
      "a label value with spaces",
      cp({ labels: { app: "no spaces allowed" } }),
      [{ property: "", reason: `controlPlane.labels["app"] ${VALUE} "no spaces allowed"` }],
    ],
    [
      "the reserved ownership label",
      cp({ labels: { "clusterform.dev/owner": "me" } }),
      [
        {
          property: "",
          reason: 'controlPlane.labels key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner to mark what it created, got "me"',
        },
      ],
    ],
    ["a control-plane field cma-ssh does not have", cp({ zone: "eu-1" }), [{ property: "", reason: "controlPlane.zone is not a known field" }]],
    ["a top-level field cma-ssh does not have", { region: "eu" }, [{ property: "region", reason: "region is not a known field" }]],
    ["a timeout that is not a duration", { timeouts: { create: "soon" } }, [{ property: "", reason: `timeouts.create ${DURATION} "soon"` }]],
    ["a timeout kind that does not exist", { timeouts: { read: "1s" } }, [{ property: "", reason: "timeouts.read is not a known field" }]],
    ["an empty owner marker", { owner: "" }, [{ property: "owner", reason: 'owner must be at least 1 characters, got ""' }]],
    ["a non-boolean autoNamed", { autoNamed: "yes" }, [{ property: "autoNamed", reason: 'autoNamed must be a boolean, got "yes"' }]],
    [
      "several bad fields at once, in schema order",
      { name: "X", kubernetesVersion: "1", ...cp({ count: 0 }) },
      [
        { property: "name", reason: `name ${DNS} "X"` },
        { property: "kubernetesVersion", reason: `kubernetesVersion ${SEMVER} "1"` },
        { property: "", reason: `${COUNT} 0` },
      ],
    ],
  ])("rejects %s with exact failures and returns the inputs untouched", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await clusterHandler.check({}, news)).toEqual({ inputs: news, failures });
  });

  it.each<[string, Props, Props]>([
    ["a user name", { name: UNKNOWN }, { name: UNKNOWN, autoNamed: false }],
    ["the version", { kubernetesVersion: UNKNOWN }, { name: DERIVED, autoNamed: true }],
    ["the whole control plane", { controlPlane: UNKNOWN }, { name: UNKNOWN, autoNamed: true }],
    ["the instance type", cp({ instanceType: UNKNOWN }), { name: UNKNOWN, autoNamed: true }],
    ["the count", cp({ count: UNKNOWN }), { name: UNKNOWN, autoNamed: true }],
    ["the whole label map", cp({ labels: UNKNOWN }), { name: UNKNOWN, autoNamed: true }],
    ["one label value", cp({ labels: { app: UNKNOWN } }), { name: UNKNOWN, autoNamed: true }],
    ["the whole timeouts object", { timeouts: UNKNOWN }, { name: DERIVED, autoNamed: true }],
    ["one timeout", { timeouts: { update: UNKNOWN } }, { name: DERIVED, autoNamed: true }],
    [
      "every field at once",
      { name: UNKNOWN, kubernetesVersion: UNKNOWN, controlPlane: UNKNOWN, timeouts: UNKNOWN },
      { name: UNKNOWN, autoNamed: false },
    ],
  ])("lets the unknown sentinel through in place of %s", async (_, patch, filled) => {
    expect(await clusterHandler.check({}, { ...raw, ...patch })).toEqual({
      inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER },
      failures: [],
    });
  });

  it("passes __provider through untouched, whatever it holds", async () => {
    const provider = `${PROVIDER}\n// ${"x".repeat(4096)}`;
    const { inputs } = await clusterHandler.check({}, { ...raw, __provider: provider });
    expect(inputs.__provider).toBe(provider);
  });

  it("keeps the derived name of the old inputs when only the version rises", async () => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    const { inputs: news, failures } = await clusterHandler.check(olds, { ...raw, kubernetesVersion: "1.32.3" });
    expect(failures).toEqual([]);
    expect(news).toEqual({ ...olds, kubernetesVersion: "1.32.3" });
  });

  it("refuses a version downgrade against the old inputs, returning the inputs as sent", async () => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    expect(await clusterHandler.check(olds, { ...raw, kubernetesVersion: "v1.30.10" })).toEqual({
      inputs: { ...raw, kubernetesVersion: "v1.30.10" },
      failures: [
        {
          property: "kubernetesVersion",
          reason:
            "kubernetesVersion cannot go down from 1.31.6 to 1.30.10: cma-ssh only upgrades; choose 1.31.6 or a newer version, or replace the cluster",
        },
      ],
    });
  });
});

/** The outputs create adds to the state next to the inputs. */
const OUTPUTS: Props = { status: "RUNNING", statusMessage: "", kubeconfig: "apiVersion: v1\nkind: Config\n" };

/** Runs what the engine runs for an update: check the old inputs, check the new against them, diff against the old state. */
async function diffOf(oldPatch: Props, newPatch: Props) {
  const { inputs: olds, failures: oldFailures } = await clusterHandler.check({}, { ...raw, ...oldPatch });
  const { inputs: news, failures } = await clusterHandler.check(olds, { ...raw, ...newPatch });
  expect([oldFailures, failures]).toEqual([[], []]);
  return clusterHandler.diff(String(olds.name), { ...olds, ...OUTPUTS }, news);
}

const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };
const IN_PLACE = { changes: true, replaces: [], deleteBeforeReplace: false };
const replace = (replaces: string[], deleteBeforeReplace: boolean) => ({ changes: true, replaces, deleteBeforeReplace });

describe("clusterHandler.diff", () => {
  describe.each<[string, Props]>([
    ["a derived name", {}],
    ["a user-chosen name", { name: "prod-eu" }],
  ])("of a cluster with %s", (_, naming) => {
    const derived = naming.name === undefined;
    it.each<[string, Props, Props, object]>([
      ["plans nothing when nothing changed", {}, {}, NO_CHANGE],
      ['plans nothing when the version only gains a "v"', {}, { kubernetesVersion: "v1.31.6" }, NO_CHANGE],
      ["plans nothing when label keys are reordered", cp({ labels: { a: "1", b: "2" } }), cp({ labels: { b: "2", a: "1" } }), NO_CHANGE],
      ["plans nothing when timeouts change", { timeouts: { create: "30m" } }, { timeouts: { create: "2s", delete: "5m" } }, NO_CHANGE],
      ["plans nothing when __provider changes", {}, { __provider: "exports.handler = {}" }, NO_CHANGE],
      ["upgrades in place when kubernetesVersion rises", {}, { kubernetesVersion: "1.32.3" }, IN_PLACE],
      ["upgrades in place when kubernetesVersion is unknown", {}, { kubernetesVersion: UNKNOWN }, IN_PLACE],
      ...(
        [
          ["controlPlane.count changes", cp({ count: 3 })],
          ["controlPlane.instanceType changes", cp({ instanceType: "gpu" })],
          ["a control-plane label is added", cp({ labels: { app: "web" } })],
          ["the control plane is unknown", { controlPlane: UNKNOWN }],
          ["controlPlane.count is unknown", cp({ count: UNKNOWN })],
        ] as [string, Props][]
      ).map(([what, change]): [string, Props, Props, object] => [
        derived ? `replaces under a new derived name, deleting first, when ${what}` : `replaces, deleting first, when ${what} under the same name`,
        {},
        change,
        derived ? replace(["name", "controlPlane"], true) : replace(["controlPlane"], true),
      ]),
    ])("%s", async (_, oldPatch, newPatch, expected) => {
      expect(await diffOf({ ...naming, ...oldPatch }, { ...naming, ...newPatch })).toEqual(expected);
    });
  });

  const CREATE_FIRST = { deleteBeforeReplace: false };
  it.each<[string, Props, Props, object]>([
    ["replaces, deleting first, when a user name is set", {}, { name: "prod-eu" }, replace(["name"], true)],
    ["replaces, deleting first, when the user name changes", { name: "prod-eu" }, { name: "prod-us" }, replace(["name"], true)],
    ["replaces, deleting first, when the user name is dropped for a derived one", { name: "prod-eu" }, {}, replace(["name"], true)],
    ["replaces, deleting first, when the user name becomes unknown", { name: "prod-eu" }, { name: UNKNOWN }, replace(["name"], true)],
    [
      "replaces, deleting first, when the version and the control plane change together",
      { name: "prod-eu" },
      { name: "prod-eu", kubernetesVersion: "1.32.3", ...cp({ count: 2 }) },
      replace(["controlPlane"], true),
    ],
    [
      "replaces, creating first when asked, under a new derived name",
      {},
      { ...CREATE_FIRST, ...cp({ count: 3 }) },
      replace(["name", "controlPlane"], false),
    ],
    ["replaces, creating first when asked, when the user name changes", { name: "prod-eu" }, { ...CREATE_FIRST, name: "prod-us" }, replace(["name"], false)],
    [
      "replaces, creating first when asked, when both the name and the control plane change",
      { name: "prod-eu" },
      { ...CREATE_FIRST, name: "prod-us", ...cp({ count: 2 }) },
      replace(["name", "controlPlane"], false),
    ],
    [
      "replaces, creating first when asked, when the user name becomes unknown (preview cannot know it clashes)",
      { name: "prod-eu" },
      { ...CREATE_FIRST, name: UNKNOWN },
      replace(["name"], false),
    ],
  ])("%s", async (_, oldPatch, newPatch, expected) => {
    expect(await diffOf(oldPatch, newPatch)).toEqual(expected);
  });

  it("refuses at preview a create-first replacement that keeps a user-chosen name", async () => {
    await expect(diffOf({ name: "prod-eu" }, { ...CREATE_FIRST, name: "prod-eu", ...cp({ count: 2 }) })).rejects.toThrow(
      /^planning the replacement of "prod-eu" \(changed: controlPlane\): REPLACEMENT_CLASH: .*remove `deleteBeforeReplace: false`/,
    );
  });

  it("plans nothing when the user pins the name that was derived", async () => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    expect(await diffOf({}, { name: olds.name })).toEqual(NO_CHANGE);
  });

  it("deletes first when the user pins the derived name and changes the control plane in the same update", async () => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    expect(await diffOf({}, { name: olds.name, ...cp({ count: 2 }) })).toEqual(replace(["controlPlane"], true));
  });

  it.each<[string, Props]>([
    ["timeouts", { timeouts: { update: "1s" } }],
    ["owner", { owner: "fedcba9876543210" }],
    ["resourceName", { resourceName: "renamed" }],
    ["__provider", { __provider: "exports.handler = {}" }],
    ["autoNamed", { autoNamed: false }],
  ])("never plans a change for `%s` alone", async (_, change) => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    expect(await clusterHandler.diff(String(olds.name), { ...olds, ...OUTPUTS }, { ...olds, ...change })).toEqual(NO_CHANGE);
  });

  it.each<[string, Props]>([
    ["another status", { status: "ERROR", statusMessage: "machine failed" }],
    ["another kubeconfig", { kubeconfig: "rotated" }],
    ["no outputs at all", { status: undefined, statusMessage: undefined, kubeconfig: undefined }],
    ["outputs of a later release", { endpoint: "https://10.0.0.1:6443", clusterStatus: "RUNNING" }],
  ])("ignores old outputs: %s plans nothing", async (_, outputs) => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    expect(await clusterHandler.diff(String(olds.name), { ...olds, ...OUTPUTS, ...outputs }, olds)).toEqual(NO_CHANGE);
  });
});
