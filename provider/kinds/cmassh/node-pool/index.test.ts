import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { cmasshNodePool } from "./kind";
import { testHandler } from "../../testing";

const nodePoolHandler = testHandler(cmasshNodePool);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';
const DERIVED = expect.stringMatching(/^gpu-[0-9a-f]{7}$/);

/** What the SDK sends for `new cmassh.NodePool("gpu", { clusterName: "prod", instanceType: "gpu", count: 2 })`. */
const raw: Props = {
  __provider: PROVIDER,
  owner: "0123456789abcdef",
  resourceName: "gpu",
  clusterName: "prod",
  instanceType: "gpu",
  count: 2,
};

const DNS = "must be a DNS-1123 label: 1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got";
const KEY =
  'must be a Kubernetes label key: an optional DNS subdomain prefix of at most 253 characters and "/", then a name of 1 to 63 letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit';
const VALUE =
  "must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, got";
const DURATION = 'must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got';
const COUNT = "count must be an integer between 0 and 1000, got";
const TYPE = 'instanceType must be one of "standard" or "gpu", got';

describe("nodePoolHandler.check", () => {
  it.each<[string, Props, Props]>([
    ["derives a name and marks it derived", {}, { name: DERIVED, autoNamed: true }],
    ["keeps a user-chosen name", { name: "batch" }, { name: "batch", autoNamed: false }],
    ["accepts a pool scaled to zero", { count: 0 }, { name: DERIVED, autoNamed: true }],
    ["accepts the largest pool", { count: 1000 }, { name: DERIVED, autoNamed: true }],
    [
      "keeps labels and trims timeouts",
      { labels: { tier: "batch", "example.com/team": "ml" }, timeouts: { update: " 90s " } },
      { timeouts: { update: "90s" }, name: DERIVED, autoNamed: true },
    ],
  ])("%s", async (_, patch, filled) => {
    expect(await nodePoolHandler.check({}, { ...raw, ...patch })).toEqual({
      inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER },
      failures: [],
    });
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a cluster name with capitals", { clusterName: "Prod" }, [{ property: "clusterName", reason: `clusterName ${DNS} "Prod"` }]],
    ["a missing cluster name", { clusterName: undefined }, [{ property: "clusterName", reason: "clusterName is required" }]],
    ["a pool name starting with '-'", { name: "-pool" }, [{ property: "name", reason: `name ${DNS} "-pool"` }]],
    ["a 64-character pool name", { name: "p".repeat(64) }, [{ property: "name", reason: `name ${DNS} "${"p".repeat(64)}"` }]],
    ["an instance type that does not exist", { instanceType: "tpu" }, [{ property: "instanceType", reason: `${TYPE} "tpu"` }]],
    ["a missing instance type", { instanceType: undefined }, [{ property: "instanceType", reason: "instanceType is required" }]],
    ["a negative count", { count: -1 }, [{ property: "count", reason: `${COUNT} -1` }]],
    ["a count above the limit", { count: 1001 }, [{ property: "count", reason: `${COUNT} 1001` }]],
    ["a fractional count", { count: 1.5 }, [{ property: "count", reason: `${COUNT} 1.5` }]],
    ["a count given as a string", { count: "3" }, [{ property: "count", reason: `${COUNT} "3"` }]],
    ["a missing count", { count: undefined }, [{ property: "count", reason: "count is required" }]],
    ["labels given as a string", { labels: "x" }, [{ property: "labels", reason: 'labels must be a map of label keys to string values, got "x"' }]],
    ["labels given as a list", { labels: ["a"] }, [{ property: "labels", reason: 'labels must be a map of label keys to string values, got ["a"]' }]],
    ["a 64-character label value", { labels: { k: "v".repeat(64) } }, [{ property: "", reason: `labels["k"] ${VALUE} "${"v".repeat(64)}"` }]],
    ["a numeric label value", { labels: { k: 5 } }, [{ property: "", reason: `labels["k"] ${VALUE} 5` }]],
    ["a label key with two slashes", { labels: { "a/b/c": "x" } }, [{ property: "", reason: `labels key "a/b/c" ${KEY}` }]],
    [
      "the reserved ownership label",
      { labels: { "clusterform.dev/owner": "someone-else" } },
      [
        {
          property: "",
          reason:
            'labels key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner to mark what it created, got "someone-else"',
        },
      ],
    ],
    ["a timeout with words", { timeouts: { delete: "10 minutes" } }, [{ property: "", reason: `timeouts.delete ${DURATION} "10 minutes"` }]],
    ["a timeout without a unit", { timeouts: { create: "20" } }, [{ property: "", reason: `timeouts.create ${DURATION} "20"` }]],
    ["a field cma-ssh does not have", { zone: "eu-1" }, [{ property: "zone", reason: "zone is not a known field" }]],
    ["a missing owner marker", { owner: undefined }, [{ property: "owner", reason: "owner is required" }]],
    ["a numeric resource name", { resourceName: 2 }, [{ property: "resourceName", reason: "resourceName must be a string, got 2" }]],
    [
      "several bad fields at once, in schema order",
      { clusterName: "C", instanceType: "tpu", count: -1 },
      [
        { property: "clusterName", reason: `clusterName ${DNS} "C"` },
        { property: "instanceType", reason: `${TYPE} "tpu"` },
        { property: "count", reason: `${COUNT} -1` },
      ],
    ],
  ])("rejects %s with exact failures and returns the inputs untouched", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await nodePoolHandler.check({}, news)).toEqual({ inputs: news, failures });
  });

  it.each<[string, Props, Props]>([
    ["a user name", { name: UNKNOWN }, { name: UNKNOWN, autoNamed: false }],
    ["the cluster name", { clusterName: UNKNOWN }, { name: UNKNOWN, autoNamed: true }],
    ["the instance type", { instanceType: UNKNOWN }, { name: UNKNOWN, autoNamed: true }],
    ["the count", { count: UNKNOWN }, { name: DERIVED, autoNamed: true }],
    ["the whole label map", { labels: UNKNOWN }, { name: UNKNOWN, autoNamed: true }],
    ["one label value", { labels: { tier: UNKNOWN } }, { name: UNKNOWN, autoNamed: true }],
    ["the whole timeouts object", { timeouts: UNKNOWN }, { name: DERIVED, autoNamed: true }],
    ["one timeout", { timeouts: { create: UNKNOWN } }, { name: DERIVED, autoNamed: true }],
    [
      "every field at once",
      { name: UNKNOWN, clusterName: UNKNOWN, instanceType: UNKNOWN, count: UNKNOWN, labels: UNKNOWN, timeouts: UNKNOWN },
      { name: UNKNOWN, autoNamed: false },
    ],
  ])("lets the unknown sentinel through in place of %s", async (_, patch, filled) => {
    expect(await nodePoolHandler.check({}, { ...raw, ...patch })).toEqual({
      inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER },
      failures: [],
    });
  });

  it("passes __provider through untouched, on success and on failure", async () => {
    const provider = `${PROVIDER}\n// ${"y".repeat(4096)}`;
    const ok = await nodePoolHandler.check({}, { ...raw, __provider: provider });
    const bad = await nodePoolHandler.check({}, { ...raw, count: -1, __provider: provider });
    expect([ok.inputs.__provider, bad.inputs.__provider]).toEqual([provider, provider]);
  });

  it("keeps the derived name of the old inputs when only the count changes", async () => {
    const { inputs: olds } = await nodePoolHandler.check({}, raw);
    expect(await nodePoolHandler.check(olds, { ...raw, count: 7 })).toEqual({ inputs: { ...olds, count: 7 }, failures: [] });
  });
});

/** The outputs create adds to the state next to the inputs. */
const OUTPUTS: Props = { clusterStatus: "RUNNING" };

async function diffOf(oldPatch: Props, newPatch: Props) {
  const { inputs: olds, failures: oldFailures } = await nodePoolHandler.check({}, { ...raw, ...oldPatch });
  const { inputs: news, failures } = await nodePoolHandler.check(olds, { ...raw, ...newPatch });
  expect([oldFailures, failures]).toEqual([[], []]);
  return nodePoolHandler.diff(`prod/${String(olds.name)}`, { ...olds, ...OUTPUTS }, news);
}

const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };
const IN_PLACE = { changes: true, replaces: [], deleteBeforeReplace: false };
const replace = (replaces: string[], deleteBeforeReplace: boolean) => ({ changes: true, replaces, deleteBeforeReplace });

describe("nodePoolHandler.diff", () => {
  it.each<[string, Props, Props, object]>([
    ["plans nothing when nothing changed", {}, {}, NO_CHANGE],
    ["plans nothing when label keys are reordered", { labels: { a: "1", b: "2" } }, { labels: { b: "2", a: "1" } }, NO_CHANGE],
    ["plans nothing when timeouts change", {}, { timeouts: { create: "2s" } }, NO_CHANGE],
    ["plans nothing when __provider changes", {}, { __provider: "exports.handler = {}" }, NO_CHANGE],
    ["scales in place when count rises", {}, { count: 5 }, IN_PLACE],
    ["scales in place when count drops to zero", {}, { count: 0 }, IN_PLACE],
    ["scales in place when count is unknown", {}, { count: UNKNOWN }, IN_PLACE],
    ["replaces under a new derived name, creating first when asked, when clusterName changes", {}, { deleteBeforeReplace: false, clusterName: "other" }, replace(["clusterName", "name"], false)],
    ["replaces under a new derived name, creating first when asked, when instanceType changes", {}, { deleteBeforeReplace: false, instanceType: "standard" }, replace(["name", "instanceType"], false)],
    ["replaces under a new derived name, creating first when asked, when a label is added", {}, { deleteBeforeReplace: false, labels: { tier: "batch" } }, replace(["name", "labels"], false)],
    ["replaces under a new derived name, creating first when asked, when a label value changes", { labels: { tier: "a" } }, { deleteBeforeReplace: false, labels: { tier: "b" } }, replace(["name", "labels"], false)],
    ["replaces under a new derived name, creating first when asked, when an empty label map is written out", {}, { deleteBeforeReplace: false, labels: {} }, replace(["name", "labels"], false)],
    ["replaces under a new derived name, creating first when asked, when an empty label map is dropped", { labels: {} }, { deleteBeforeReplace: false }, replace(["name", "labels"], false)],
    ["replaces under a new derived name, creating first when asked, when a label value is unknown", {}, { deleteBeforeReplace: false, labels: { tier: UNKNOWN } }, replace(["name", "labels"], false)],
    ["replaces under a new derived name, creating first when asked, when clusterName is unknown", {}, { deleteBeforeReplace: false, clusterName: UNKNOWN }, replace(["clusterName", "name"], false)],
    ["replaces, creating first when asked, when a user name is set", {}, { deleteBeforeReplace: false, name: "batch" }, replace(["name"], false)],
    ["plans nothing for a user-named pool left alone", { name: "batch" }, { name: "batch" }, NO_CHANGE],
    ["scales a user-named pool in place", { name: "batch" }, { name: "batch", count: 9 }, IN_PLACE],
    ["replaces under a new derived name, deleting first by default, when instanceType changes", {}, { instanceType: "standard" }, replace(["name", "instanceType"], true)],
    ["replaces, deleting first by default, when a user-named pool moves to another cluster", { name: "batch" }, { name: "batch", clusterName: "other" }, replace(["clusterName"], true)],
    ["replaces a user-named pool, deleting first, when instanceType changes", { name: "batch" }, { name: "batch", instanceType: "standard" }, replace(["instanceType"], true)],
    ["replaces a user-named pool, deleting first, when labels change", { name: "batch" }, { name: "batch", labels: { tier: "x" } }, replace(["labels"], true)],
    ["replaces a user-named pool, deleting first, when labels become unknown", { name: "batch" }, { name: "batch", labels: UNKNOWN }, replace(["labels"], true)],
    ["replaces a user-named pool, creating first when asked, when it moves to another cluster", { name: "batch" }, { deleteBeforeReplace: false, name: "batch", clusterName: "other" }, replace(["clusterName"], false)],
    ["replaces a user-named pool, creating first when asked, when it is renamed", { name: "batch" }, { deleteBeforeReplace: false, name: "batch2", instanceType: "standard" }, replace(["name", "instanceType"], false)],
    ["replaces, creating first when asked, when a user name is dropped for a derived one", { name: "batch" }, { deleteBeforeReplace: false }, replace(["name"], false)],
    ["replaces, creating first when asked, when the cluster name is unknown for a user-named pool", { name: "batch" }, { deleteBeforeReplace: false, name: "batch", clusterName: UNKNOWN }, replace(["clusterName"], false)],
  ])("%s", async (_, oldPatch, newPatch, expected) => {
    expect(await diffOf(oldPatch, newPatch)).toEqual(expected);
  });

  it.each<[string, Props]>([
    ["timeouts", { timeouts: { delete: "1s" } }],
    ["owner", { owner: "fedcba9876543210" }],
    ["resourceName", { resourceName: "renamed" }],
    ["__provider", { __provider: "exports.handler = {}" }],
    ["autoNamed", { autoNamed: false }],
  ])("never plans a change for `%s` alone", async (_, change) => {
    const { inputs: olds } = await nodePoolHandler.check({}, raw);
    expect(await nodePoolHandler.diff(`prod/${String(olds.name)}`, { ...olds, ...OUTPUTS }, { ...olds, ...change })).toEqual(NO_CHANGE);
  });

  it.each<[string, Props]>([
    ["another clusterStatus", { clusterStatus: "RECONCILING" }],
    ["no outputs at all", { clusterStatus: undefined }],
    ["outputs of a cluster", { status: "RUNNING", kubeconfig: "apiVersion: v1" }],
  ])("ignores old outputs: %s plans nothing", async (_, outputs) => {
    const { inputs: olds } = await nodePoolHandler.check({}, raw);
    expect(await nodePoolHandler.diff(`prod/${String(olds.name)}`, { ...olds, ...OUTPUTS, ...outputs }, olds)).toEqual(NO_CHANGE);
  });
});
