import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSenlinStack, type SenlinStack, senlinClusters } from "../harness/senlin-stack";

const good = { profile: "web-profile" };

/** A bad cluster spec, how the failure starts (the field), whether Pulumi shows the top-level value, and the reason. */
const badInputs: [string, Record<string, unknown>, string, boolean, RegExp][] = [
  ["a name starting with a digit", { name: "1web" }, "name", true, /Senlin name: .*an ASCII letter first.*got "1web"/],
  ["a name with a space", { name: "web tier" }, "name", true, /got "web tier"/],
  ["a name of 255 characters", { name: "a".repeat(255) }, "name", true, /1 to 254 characters/],
  ["an empty profile", { profile: "" }, "profile", true, /profile name, short id or UUID \(a non-empty string\), got ""/],
  ["a negative minSize", { minSize: -1 }, "minSize", true, /integer between 0 and 1000, got -1/],
  ["a maxSize below -1", { maxSize: -2 }, "maxSize", true, /integer between -1 and 1000, got -2/],
  ["a fractional desiredCapacity", { desiredCapacity: 1.5 }, "desiredCapacity", true, /integer between 0 and 1000, got 1\.5/],
  ["a desiredCapacity above Senlin's node limit", { desiredCapacity: 1001 }, "desiredCapacity", true, /got 1001/],
  ["minSize above maxSize", { minSize: 3, maxSize: 2, desiredCapacity: 2 }, "minSize", true, /must not exceed maxSize \(2\), got 3/],
  ["desiredCapacity above maxSize", { maxSize: 2, desiredCapacity: 3 }, "desiredCapacity", true, /between minSize \(0\) and maxSize \(2\), got 3/],
  ["desiredCapacity below minSize", { minSize: 2, desiredCapacity: 1 }, "desiredCapacity", true, /between minSize \(2\) and maxSize \(unbounded\), got 1/],
  ["a zero timeout", { timeout: 0 }, "timeout", true, /integer between 1 and 2147483647, got 0/],
  ["a timeout given as a string", { timeout: "600" }, "timeout", true, /got "600"/],
  ["metadata given as a list", { metadata: ["a"] }, "metadata", true, /object of keys to JSON values, got \["a"\]/],
  ["the reserved metadata key", { metadata: { "clusterform.dev/owner": "me" } }, "metadata", false, /key "clusterform\.dev\/owner" is reserved/],
  ["a policy listed twice", { policies: [{ policy: "deletion" }, { policy: "deletion" }] }, "policies[1].policy", false, /each policy once, got "deletion" again/],
  ["a policy field Senlin does not have", { policies: [{ policy: "deletion", priority: 1 }] }, "policies[0].priority", false, /is not a known field/],
  ["an enabled flag given as a string", { policies: [{ policy: "deletion", enabled: "no" }] }, "policies[0].enabled", false, /boolean, got "no"/],
  ["profileOnly given as a string", { profileOnly: "yes" }, "profileOnly", true, /boolean, got "yes"/],
  ["a timeout that is not a duration", { timeouts: { create: "soon" } }, "timeouts.create", false, /duration.*got "soon"/],
];

const escapeRegex = (s: string) => s.replace(/[.[\]]/g, (c) => `\\${c}`);

describe("senlin: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each(badInputs)("rejects %s", async (_what, change, field, topLevel, reason) => {
    await t.configure({ cluster: { ...good, ...change } });
    const since = await t.plane.lastSeq();
    const failure = await t.stack.preview().then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toBeDefined();
    expect(failure).toMatch(new RegExp(`has a problem: ${escapeRegex(field)}\\b`));
    expect(failure).not.toContain("<nil>");
    if (topLevel) expect(failure).toMatch(new RegExp(`property ${field} value \\{`));
    expect(failure).toMatch(reason);
    expect(await t.plane.audit(since)).toEqual([]);
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
