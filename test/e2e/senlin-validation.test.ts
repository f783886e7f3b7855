import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupPreviews, ownErrorLines } from "../harness/bad-inputs";
import { openSenlinStack, type SenlinStack, senlinClusters } from "../harness/senlin-stack";

const good = { profile: "web-profile" };

/**
 * Bad cluster specs previewed together: the provider's check reports every failure of the cluster
 * at once. No two inputs of a group share a field. The size rules (minSize <= desiredCapacity <=
 * maxSize) run only when the rest of the cluster is valid, so each goes alone; unique policies
 * and the reserved metadata key are checked only when the policies, the metadata, are otherwise
 * valid.
 */
interface Group {
  /** The cluster spec of the group's preview (over a good one). */
  cluster: Record<string, unknown>;
  /** A bad input, how the failure starts (the field), whether Pulumi shows the top-level value, and the reason. */
  inputs: [string, string, boolean, RegExp][];
}

const groups: Group[] = [
  {
    cluster: {
      name: "1web",
      profile: "",
      minSize: -1,
      maxSize: -2,
      desiredCapacity: 1.5,
      timeout: 0,
      metadata: ["a"],
      policies: [{ policy: "deletion" }, { policy: "deletion" }],
      profileOnly: "yes",
    },
    inputs: [
      ["a name starting with a digit", "name", true, /Senlin name: .*an ASCII letter first.*got "1web"/],
      ["an empty profile", "profile", true, /profile name, short id or UUID \(a non-empty string\), got ""/],
      ["a negative minSize", "minSize", true, /integer between 0 and 1000, got -1/],
      ["a maxSize below -1", "maxSize", true, /integer between -1 and 1000, got -2/],
      ["a fractional desiredCapacity", "desiredCapacity", true, /integer between 0 and 1000, got 1\.5/],
      ["a zero timeout", "timeout", true, /integer between 1 and 2147483647, got 0/],
      ["metadata given as a list", "metadata", true, /object of keys to JSON values, got \["a"\]/],
      ["a policy listed twice", "policies[1].policy", false, /each policy once, got "deletion" again/],
      ["profileOnly given as a string", "profileOnly", true, /boolean, got "yes"/],
    ],
  },
  {
    cluster: {
      name: "web tier",
      desiredCapacity: 1001,
      timeout: "600",
      metadata: { "clusterform.dev/owner": "me" },
      policies: [{ policy: "deletion", priority: 1 }],
      timeouts: { create: "soon" },
    },
    inputs: [
      ["a name with a space", "name", true, /got "web tier"/],
      ["a desiredCapacity above Senlin's node limit", "desiredCapacity", true, /got 1001/],
      ["a timeout given as a string", "timeout", true, /got "600"/],
      ["the reserved metadata key", "metadata", false, /key "clusterform\.dev\/owner" is reserved/],
      ["a policy field Senlin does not have", "policies[0].priority", false, /is not a known field/],
      ["a timeout that is not a duration", "timeouts.create", false, /duration.*got "soon"/],
    ],
  },
  {
    cluster: { name: "a".repeat(255), policies: [{ policy: "deletion", enabled: "no" }] },
    inputs: [
      ["a name of 255 characters", "name", true, /1 to 254 characters/],
      ["an enabled flag given as a string", "policies[0].enabled", false, /boolean, got "no"/],
    ],
  },
  {
    cluster: { minSize: 3, maxSize: 2, desiredCapacity: 2 },
    inputs: [["minSize above maxSize", "minSize", true, /must not exceed maxSize \(2\), got 3/]],
  },
  {
    cluster: { maxSize: 2, desiredCapacity: 3 },
    inputs: [["desiredCapacity above maxSize", "desiredCapacity", true, /between minSize \(0\) and maxSize \(2\), got 3/]],
  },
  {
    cluster: { minSize: 2, desiredCapacity: 1 },
    inputs: [["desiredCapacity below minSize", "desiredCapacity", true, /between minSize \(2\) and maxSize \(unbounded\), got 1/]],
  },
];

const badInputs = groups.flatMap((group) => group.inputs.map(([what, field, topLevel, reason]) => [what, group, field, topLevel, reason] as const));

const escapeRegex = (s: string) => s.replace(/[.[\]]/g, (c) => `\\${c}`);

describe("senlin: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  // The first `it` of a group runs its preview; the others of the group read the same result.
  const previewOf = groupPreviews<Group>(
    () => t,
    async (group) => {
      await t.configure({ cluster: { ...good, ...group.cluster } });
    },
  );

  it.each(badInputs)("rejects %s", async (_what, group, field, topLevel, reason) => {
    const { failure, calls } = await previewOf(group);
    expect(failure).toBeDefined();
    const named = new RegExp(`has a problem: ${escapeRegex(field)}\\b`);
    expect(failure).toMatch(named);
    expect(failure).not.toContain("<nil>");
    if (topLevel) expect(failure).toMatch(new RegExp(`property ${field} value \\{`));
    expect(failure).toMatch(reason);
    // The same on this input's own messages: those of the cluster that name the field.
    const own = ownErrorLines(failure, "main", named);
    if (topLevel) expect(own).toMatch(new RegExp(`property ${field} value \\{`));
    expect(own).toMatch(reason);
    expect(calls).toEqual([]);
  });

  it("reports a profile that does not exist at up, with Senlin's own message, and creates nothing", async () => {
    await t.configure({ cluster: { profile: "no-such-profile" } });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/CreateCluster cluster "main-[0-9a-f]{7}": HTTP 400: The specified profile 'no-such-profile' could not be found\./);
    expect(await senlinClusters(t.plane)).toEqual([]);
    const state = await t.stack.exportState();
    expect((state.deployment.resources ?? []).filter((r: { type: string }) => r.type.includes("senlin"))).toEqual([]);
  });
});
