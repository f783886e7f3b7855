import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepEqual, planDiff, type PolicyTable } from "../../core/planner";
import { UNKNOWN } from "../../core/validation";
import type { TestHandler as ResourceHandler } from "../testing";

import { clusterPolicies } from "./cluster/schema";
import { nodePoolPolicies } from "./node-pool/schema";
import { cmasshCluster } from "./cluster/kind";
import { cmasshNodePool } from "./node-pool/kind";
import { testHandler } from "../testing";

const clusterHandler = testHandler(cmasshCluster);
const nodePoolHandler = testHandler(cmasshNodePool);

type Props = Record<string, unknown>;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const dnsName = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/);
const labelValue = fc.stringMatching(/^([a-z0-9]([-a-z0-9._]{0,8}[a-z0-9])?)?$/);
const labelKey = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), fc.constantFrom("example.com/team", "app.kubernetes.io/name"));
// Empty maps on purpose: "no labels" and `{}` are different inputs to the planner.
const labels = fc.oneof(fc.constant({}), fc.dictionary(labelKey, labelValue, { minKeys: 1, maxKeys: 3 }));
const duration = fc.tuple(fc.integer({ min: 1, max: 90 }), fc.constantFrom("ms", "s", "m", "h")).map(([n, unit]) => `${n}${unit}`);
const timeouts = fc.record({ create: duration, update: duration, delete: duration }, { requiredKeys: [] });
const version = fc
  .tuple(fc.nat(3), fc.nat(40), fc.nat(20), fc.boolean())
  .map(([major, minor, patch, v]) => `${v ? "v" : ""}${major}.${minor}.${patch}`);
const identity = {
  __provider: fc.string({ maxLength: 40 }),
  owner: fc.stringMatching(/^[0-9a-f]{16}$/),
  resourceName: fc.string({ minLength: 1, maxLength: 80, unit: "grapheme" }),
};

const rawCluster: fc.Arbitrary<Props> = fc.record(
  {
    ...identity,
    name: dnsName,
    kubernetesVersion: version,
    controlPlane: fc.record(
      { instanceType: fc.constantFrom("standard", "gpu"), count: fc.integer({ min: 1, max: 9 }), labels },
      { requiredKeys: ["instanceType", "count"] },
    ),
    timeouts,
  },
  { requiredKeys: ["__provider", "owner", "resourceName", "kubernetesVersion", "controlPlane"] },
);

const rawNodePool: fc.Arbitrary<Props> = fc.record(
  {
    ...identity,
    name: dnsName,
    clusterName: dnsName,
    instanceType: fc.constantFrom("standard", "gpu"),
    count: fc.integer({ min: 0, max: 1000 }),
    labels,
    timeouts,
  },
  { requiredKeys: ["__provider", "owner", "resourceName", "clusterName", "instanceType", "count"] },
);

interface Kind {
  kind: string;
  handler: ResourceHandler;
  raw: fc.Arbitrary<Props>;
  /** Fields whose change must always replace. */
  identityFields: string[];
  /** Fields an update may change (the version only goes up, so it is left out). */
  mutableFields: string[];
  /** True when a replacement from `olds` to `news` would clash with the old object. */
  clashes(olds: Props, news: Props): boolean;
  policies: PolicyTable;
  outputs: Props;
}

const kinds: Kind[] = [
  {
    kind: "Cluster",
    handler: clusterHandler,
    raw: rawCluster,
    identityFields: ["name", "controlPlane"],
    mutableFields: ["__provider", "name", "controlPlane", "timeouts"],
    clashes: (olds, news) => olds.name === news.name,
    policies: clusterPolicies,
    outputs: { status: "RUNNING", statusMessage: "", kubeconfig: "apiVersion: v1" },
  },
  {
    kind: "NodePool",
    handler: nodePoolHandler,
    raw: rawNodePool,
    identityFields: ["name", "clusterName", "instanceType", "labels"],
    mutableFields: ["__provider", "name", "clusterName", "instanceType", "count", "labels", "timeouts"],
    clashes: (olds, news) => olds.name === news.name && olds.clusterName === news.clusterName,
    policies: nodePoolPolicies,
    outputs: { clusterStatus: "RUNNING" },
  },
];

async function checked(handler: ResourceHandler, olds: Props, raw: Props): Promise<Props> {
  const { inputs, failures } = await handler.check(olds, raw);
  expect(failures).toEqual([]);
  return inputs as Props;
}

/** Every path into `value` where the sentinel could stand: whole objects and leaves. */
function sentinelSites(value: Props, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = [...prefix, key];
    const below = typeof inner === "object" && inner !== null ? sentinelSites(inner as Props, path) : [];
    return [path, ...below];
  });
}

function withSentinelAt(value: Props, path: string[]): Props {
  const [head, ...rest] = path;
  return { ...value, [head]: rest.length === 0 ? UNKNOWN : withSentinelAt(value[head] as Props, rest) };
}

/** `base` with `fields` taken from `other` (absent there, absent in the result). */
function withFieldsOf(base: Props, other: Props, fields: readonly string[]): Props {
  const result = { ...base };
  for (const field of fields) {
    if (other[field] === undefined) delete result[field];
    else result[field] = other[field];
  }
  return result;
}

describe.each(kinds)("$kind handler properties", ({ handler, raw, identityFields, mutableFields, clashes, policies, outputs }) => {
  it("plans no operation when the program sends the same inputs again", async () => {
    await fc.assert(
      fc.asyncProperty(raw, async (given) => {
        const olds = await checked(handler, {}, given);
        const news = await checked(handler, olds, given);
        const state = { ...olds, ...outputs };
        expect(await handler.diff("id", state, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
        expect(await handler.diff("id", state, olds)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
      }),
    );
  });

  it("always replaces when an identity field changes", async () => {
    await fc.assert(
      fc.asyncProperty(raw, raw, fc.constantFrom(...identityFields), async (before, other, field) => {
        fc.pre(!deepEqual(before[field], other[field]));
        const after = withFieldsOf(before, other, [field]);
        const olds = await checked(handler, {}, before);
        const news = await checked(handler, olds, after);
        const diff = await handler.diff("id", { ...olds, ...outputs }, news);
        expect(diff.changes).toBe(true);
        expect(diff.replaces).toContain(field);
      }),
    );
  });

  it("replaces deleting first unless told otherwise, and never creates first under the old name", async () => {
    const order = fc.constantFrom<Props>({}, { deleteBeforeReplace: true }, { deleteBeforeReplace: false });
    await fc.assert(
      fc.asyncProperty(raw, raw, fc.subarray(mutableFields, { minLength: 1, maxLength: 2 }), order, async (before, other, changed, how) => {
        const after = { ...withFieldsOf(before, other, changed), ...how };
        const olds = await checked(handler, {}, before);
        const news = await checked(handler, olds, after);
        const replacing = planDiff(policies, olds, news).replaces.length > 0;
        const diff = handler.diff("id", { ...olds, ...outputs }, news);
        if (replacing && how.deleteBeforeReplace === false && clashes(olds, news)) {
          await expect(diff).rejects.toThrow(/REPLACEMENT_CLASH/);
        } else {
          expect((await diff).deleteBeforeReplace).toBe(replacing && how.deleteBeforeReplace !== false);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("derives names that are DNS-1123 labels of at most 63 characters, the same on every check", async () => {
    await fc.assert(
      fc.asyncProperty(raw, async (given) => {
        const { name: _, ...unnamed } = given;
        const first = await checked(handler, {}, unnamed);
        const again = await checked(handler, {}, unnamed);
        const kept = await checked(handler, first, unnamed);
        expect(first.autoNamed).toBe(true);
        expect(first.name).toMatch(DNS_LABEL);
        expect(String(first.name).length).toBeLessThanOrEqual(63);
        expect([again.name, kept.name]).toEqual([first.name, first.name]);
        // The derived name is a valid user name too, so pinning it later passes check.
        await checked(handler, {}, { ...unnamed, name: first.name });
      }),
    );
  });

  it("lets the unknown sentinel through in place of any field or value", async () => {
    await fc.assert(
      fc.asyncProperty(raw, fc.nat(), async (given, pick) => {
        const { __provider, ...rest } = given;
        const sites = sentinelSites(rest);
        const path = sites[pick % sites.length];
        const { inputs, failures } = await handler.check({}, { ...withSentinelAt(rest, path), __provider });
        expect(failures).toEqual([]);
        expect(inputs.__provider).toBe(__provider);
      }),
    );
  });
});
