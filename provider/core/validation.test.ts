import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  dnsLabel,
  durationString,
  intInRange,
  isUnknown,
  labelMap,
  oneOf,
  orUnknown,
  semver,
  UNKNOWN,
  validateInputs,
} from "./validation";

const schema = z
  .object({
    name: dnsLabel(),
    shortName: dnsLabel({ maxLength: 10 }).optional(),
    k8sVersion: semver(),
    controlPlane: orUnknown(
      z.object({ instanceType: oneOf(["small", "standard", "large"]), count: intInRange(0, 1000) }).strict(),
    ),
    labels: labelMap().optional(),
    timeout: durationString().optional(),
    pools: orUnknown(z.array(z.object({ name: dnsLabel() }))).optional(),
  })
  .strict();

const valid = {
  name: "prod",
  k8sVersion: "1.13.4",
  controlPlane: { instanceType: "standard", count: 1 },
  labels: { app: "web" },
  timeout: "20m",
};

const cp = (patch: Record<string, unknown>) => ({ controlPlane: { ...valid.controlPlane, ...patch } });

const DNS = "must be a DNS-1123 label: 1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got";
const SEMVER = 'must be a version MAJOR.MINOR.PATCH such as "1.13.4" (a leading "v" is allowed), got';
const KEY =
  'must be a Kubernetes label key: an optional DNS subdomain prefix of at most 253 characters and "/", then a name of 1 to 63 letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit';
const VALUE =
  "must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, got";
const DURATION = 'must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got';

describe("validateInputs", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["uppercase name", { name: "Prod" }, "name", `name ${DNS} "Prod"`],
    ["name starting with '-'", { name: "-prod" }, "name", `name ${DNS} "-prod"`],
    ["name ending with '-'", { name: "prod-" }, "name", `name ${DNS} "prod-"`],
    ["name with '_'", { name: "pro_d" }, "name", `name ${DNS} "pro_d"`],
    ["empty name", { name: "" }, "name", `name ${DNS} ""`],
    ["64-character name", { name: "a".repeat(64) }, "name", `name ${DNS} "${"a".repeat(64)}"`],
    ["numeric name", { name: 42 }, "name", `name ${DNS} 42`],
    ["missing name", { name: undefined }, "name", "name is required"],
    [
      "name over a custom maximum",
      { shortName: "abcdefghijk" },
      "shortName",
      `shortName must be a DNS-1123 label: 1 to 10 lowercase letters, digits or '-', starting and ending with a letter or digit, got "abcdefghijk"`,
    ],
    ["two-part version", { k8sVersion: "1.13" }, "k8sVersion", `k8sVersion ${SEMVER} "1.13"`],
    ["pre-release version", { k8sVersion: "1.13.4-rc1" }, "k8sVersion", `k8sVersion ${SEMVER} "1.13.4-rc1"`],
    ["capital V prefix", { k8sVersion: "V1.13.4" }, "k8sVersion", `k8sVersion ${SEMVER} "V1.13.4"`],
    ["leading zero", { k8sVersion: "01.2.3" }, "k8sVersion", `k8sVersion ${SEMVER} "01.2.3"`],
    ["numeric version", { k8sVersion: 1.13 }, "k8sVersion", `k8sVersion ${SEMVER} 1.13`],
    ["fractional count", cp({ count: 2.5 }), "controlPlane.count", "controlPlane.count must be an integer between 0 and 1000, got 2.5"],
    ["negative count", cp({ count: -1 }), "controlPlane.count", "controlPlane.count must be an integer between 0 and 1000, got -1"],
    ["count over maximum", cp({ count: 1001 }), "controlPlane.count", "controlPlane.count must be an integer between 0 and 1000, got 1001"],
    ["count as string", cp({ count: "3" }), "controlPlane.count", 'controlPlane.count must be an integer between 0 and 1000, got "3"'],
    ["count NaN", cp({ count: Number.NaN }), "controlPlane.count", "controlPlane.count must be an integer between 0 and 1000, got NaN"],
    [
      "instance type not in list",
      cp({ instanceType: "huge" }),
      "controlPlane.instanceType",
      'controlPlane.instanceType must be one of "small", "standard" or "large", got "huge"',
    ],
    ["control plane not an object", { controlPlane: "big" }, "controlPlane", 'controlPlane must be an object, got "big"'],
    ["unknown nested field", cp({ zone: "a" }), "controlPlane.zone", "controlPlane.zone is not a known field"],
    ["unknown top-level field", { colour: "red" }, "colour", "colour is not a known field"],
    ["label key with a space", { labels: { "Bad Key": "x" } }, 'labels["Bad Key"]', `labels key "Bad Key" ${KEY}`],
    ["label key with empty name", { labels: { "example.com/": "x" } }, 'labels["example.com/"]', `labels key "example.com/" ${KEY}`],
    [
      "label key with uppercase prefix",
      { labels: { "Example.com/app": "x" } },
      'labels["Example.com/app"]',
      `labels key "Example.com/app" ${KEY}`,
    ],
    ["label key with two slashes", { labels: { "a/b/c": "x" } }, 'labels["a/b/c"]', `labels key "a/b/c" ${KEY}`],
    ["label key name of 64 chars", { labels: { ["k".repeat(64)]: "x" } }, `labels["${"k".repeat(64)}"]`, `labels key "${"k".repeat(64)}" ${KEY}`],
    ["label value starting with '-'", { labels: { app: "-web" } }, 'labels["app"]', `labels["app"] ${VALUE} "-web"`],
    ["label value of 64 chars", { labels: { app: "v".repeat(64) } }, 'labels["app"]', `labels["app"] ${VALUE} "${"v".repeat(64)}"`],
    ["numeric label value", { labels: { app: 5 } }, 'labels["app"]', `labels["app"] ${VALUE} 5`],
    ["labels as a list", { labels: ["a"] }, "labels", 'labels must be a map of label keys to string values, got ["a"]'],
    ["duration in words", { timeout: "20 minutes" }, "timeout", `timeout ${DURATION} "20 minutes"`],
    ["duration without unit", { timeout: "20" }, "timeout", `timeout ${DURATION} "20"`],
    ["duration as number", { timeout: 20 }, "timeout", `timeout ${DURATION} 20`],
    ["list item name", { pools: [{ name: "ok" }, { name: "Bad" }] }, "pools[1].name", `pools[1].name ${DNS} "Bad"`],
    ["list item not an object", { pools: [3] }, "pools[0]", "pools[0] must be an object, got 3"],
  ])("rejects %s", (_, patch, property, reason) => {
    expect(validateInputs(schema, { ...valid, ...patch })).toEqual({ failures: [{ property, reason }] });
  });

  it("reports every bad field, not only the first", () => {
    const { failures } = validateInputs(schema, { ...valid, name: "X", ...cp({ count: -2 }) });
    expect(failures.map((f) => f.property)).toEqual(["name", "controlPlane.count"]);
  });

  it("blanks secrets out of reasons", () => {
    const { failures } = validateInputs(schema, { ...valid, name: "Hunter2" }, ["Hunter2"]);
    expect(failures).toEqual([{ property: "name", reason: `name ${DNS} "[secret]"` }]);
  });

  it("returns the parsed inputs with a leading v stripped from versions", () => {
    const { inputs, failures } = validateInputs(schema, { ...valid, k8sVersion: "v1.13.4" });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ ...valid, k8sVersion: "1.13.4" });
  });

  it.each<[string, Record<string, unknown>]>([
    ["prefixed label keys and empty values", { labels: { "app.kubernetes.io/name": "", "example.com/tier": "a.b_c-d" } }],
    ["a 63-character name", { name: "a".repeat(63) }],
    ["boundary counts", cp({ count: 1000 })],
    ["compound durations", { timeout: "1h30m" }],
  ])("accepts %s", (_, patch) => {
    expect(validateInputs(schema, { ...valid, ...patch }).failures).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["a name", { name: UNKNOWN }],
    ["a length-limited name", { shortName: UNKNOWN }],
    ["a version", { k8sVersion: UNKNOWN }],
    ["a whole object", { controlPlane: UNKNOWN }],
    ["a number", cp({ count: UNKNOWN })],
    ["an enum", cp({ instanceType: UNKNOWN })],
    ["a whole map", { labels: UNKNOWN }],
    ["a map value", { labels: { app: UNKNOWN } }],
    ["a duration", { timeout: UNKNOWN }],
    ["a whole list", { pools: UNKNOWN }],
  ])("lets the unknown sentinel through in place of %s", (_, patch) => {
    const result = validateInputs(schema, { ...valid, ...patch });
    expect(result.failures).toEqual([]);
    expect(isUnknown(result.inputs)).toBe(true);
  });
});

describe("isUnknown", () => {
  it.each<[string, unknown, boolean]>([
    ["the sentinel", UNKNOWN, true],
    ["a plain string", "prod", false],
    ["a nested object value", { a: { b: [1, UNKNOWN] } }, true],
    ["a list element", [UNKNOWN], true],
    ["a known nested object", { a: { b: [1, "x"] }, c: null }, false],
    ["undefined", undefined, false],
  ])("is %s -> %s", (_, value, expected) => {
    expect(isUnknown(value)).toBe(expected);
  });
});
