import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { senlinCluster } from "./kind";
import { testHandler } from "../../testing";

const clusterHandler = testHandler(senlinCluster);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';
const OWNER = "0123456789abcdef";
const DERIVED = expect.stringMatching(/^web-[0-9a-f]{7}$/);

/** What the SDK sends for `new senlin.Cluster("web", { profile: "pserver" })`. */
const raw: Props = { __provider: PROVIDER, owner: OWNER, resourceName: "web", profile: "pserver" };
const ACTION_TIMEOUT = 'must be a duration of whole seconds from 1s to 2147483647s, such as "90s", "5m" or "1h30m", got';
// Checked inputs carry the state schema version this release writes (the 0.3.0 migration's: 1).
const FILLED = { name: DERIVED, autoNamed: true, minSize: 0, maxSize: -1, desiredCapacity: 0, __schemaVersion: 1 };

const NAME = "must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-', got";

describe("senlin clusterHandler.check", () => {
  it.each<[string, Props, Props]>([
    ["derives a name and fills the size defaults", {}, FILLED],
    ["takes desiredCapacity from minSize", { minSize: 2, maxSize: 5 }, { ...FILLED, minSize: 2, maxSize: 5, desiredCapacity: 2 }],
    ["keeps a chosen name with '_' and '.'", { name: "Web_tier.1" }, { ...FILLED, name: "Web_tier.1", autoNamed: false }],
    ["prefixes a derived name that would start with a digit", { resourceName: "1st" }, { ...FILLED, name: expect.stringMatching(/^cluster-1st-[0-9a-f]{7}$/) }],
    [
      "fills enabled and sorts policies, so order never plans a change",
      { policies: [{ policy: "zeta" }, { policy: "alpha", enabled: false }] },
      { ...FILLED, policies: [{ policy: "alpha", enabled: false }, { policy: "zeta", enabled: true }] },
    ],
    ["accepts an unbounded max with any desired", { desiredCapacity: 1000 }, { ...FILLED, desiredCapacity: 1000 }],
    ["keeps metadata and config objects", { metadata: { team: "a", n: 1 }, config: { "node.name.format": "w-$3I" } }, { ...FILLED, metadata: { team: "a", n: 1 }, config: { "node.name.format": "w-$3I" } }],
    ["keeps an action timeout of whole minutes as written", { actionTimeout: "30m" }, { ...FILLED, actionTimeout: "30m" }],
    ["writes an action timeout as its shortest duration", { actionTimeout: "1800s" }, { ...FILLED, actionTimeout: "30m" }],
    ["writes an action timeout of hours and seconds as its shortest duration", { actionTimeout: "90m5s" }, { ...FILLED, actionTimeout: "1h30m5s" }],
  ])("%s", async (_, patch, filled) => {
    expect(await clusterHandler.check({}, { ...raw, ...patch })).toEqual({ inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER }, failures: [] });
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a name starting with a digit", { name: "1web" }, [{ property: "name", reason: `name ${NAME} "1web"` }]],
    ["a name with a space", { name: "web tier" }, [{ property: "name", reason: `name ${NAME} "web tier"` }]],
    ["a 255-character name", { name: "a".repeat(255) }, [{ property: "name", reason: `name ${NAME} ${JSON.stringify("a".repeat(255)).slice(0, 80)}...` }]],
    ["a missing profile", { profile: undefined }, [{ property: "profile", reason: "profile is required" }]],
    ["an empty profile", { profile: " " }, [{ property: "profile", reason: 'profile must be a profile name, short id or UUID (a non-empty string), got " "' }]],
    ["a negative minSize", { minSize: -1 }, [{ property: "minSize", reason: "minSize must be an integer between 0 and 1000, got -1" }]],
    ["a maxSize below -1", { maxSize: -2 }, [{ property: "maxSize", reason: "maxSize must be an integer between -1 and 1000, got -2" }]],
    ["a fractional desiredCapacity", { desiredCapacity: 1.5 }, [{ property: "desiredCapacity", reason: "desiredCapacity must be an integer between 0 and 1000, got 1.5" }]],
    ["min above max", { minSize: 3, maxSize: 2 }, [{ property: "minSize", reason: "minSize must not exceed maxSize (2), got 3" }]],
    ["desired above max", { maxSize: 2, desiredCapacity: 3 }, [{ property: "desiredCapacity", reason: "desiredCapacity must be between minSize (0) and maxSize (2), got 3" }]],
    ["desired below min", { minSize: 2, desiredCapacity: 1 }, [{ property: "desiredCapacity", reason: "desiredCapacity must be between minSize (2) and maxSize (unbounded), got 1" }]],
    ["a zero action timeout", { actionTimeout: "0s" }, [{ property: "actionTimeout", reason: `actionTimeout ${ACTION_TIMEOUT} "0s"` }]],
    ["an action timeout of a fraction of a second", { actionTimeout: "1500ms" }, [{ property: "actionTimeout", reason: `actionTimeout ${ACTION_TIMEOUT} "1500ms"` }]],
    ["an action timeout in seconds as a number (the 0.2.0 timeout's form)", { actionTimeout: 600 }, [{ property: "actionTimeout", reason: `actionTimeout ${ACTION_TIMEOUT} 600` }]],
    ["metadata given as a list", { metadata: ["a"] }, [{ property: "metadata", reason: 'metadata must be an object of keys to JSON values, got ["a"]' }]],
    [
      "the reserved metadata key",
      { metadata: { "clusterform.dev/owner": "me" } },
      [{ property: "", reason: 'metadata key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner to mark the clusters it created, got "me"' }],
    ],
    ["a policy listed twice", { policies: [{ policy: "p" }, { policy: "p", enabled: false }] }, [{ property: "", reason: 'policies[1].policy must name each policy once, got "p" again (also at policies[0])' }]],
    ["a policy without its name", { policies: [{ enabled: true }] }, [{ property: "", reason: "policies[0].policy is required" }]],
    ["a policy field Senlin does not have", { policies: [{ policy: "p", priority: 1 }] }, [{ property: "", reason: "policies[0].priority is not a known field" }]],
    ["profileOnly given as a string", { profileOnly: "yes" }, [{ property: "profileOnly", reason: 'profileOnly must be a boolean, got "yes"' }]],
    ["a timeout that is not a duration", { timeouts: { update: "soon" } }, [{ property: "", reason: 'timeouts.update must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got "soon"' }]],
    ["a field Senlin clusters do not have", { region: "eu" }, [{ property: "region", reason: "region is not a known field" }]],
  ])("rejects %s, naming the field, the value and what is allowed", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await clusterHandler.check({}, news)).toEqual({ inputs: news, failures });
  });

  it.each<[string, Props, Props]>([
    ["the profile", { profile: UNKNOWN }, FILLED],
    ["minSize, which desiredCapacity follows", { minSize: UNKNOWN }, { ...FILLED, minSize: UNKNOWN, desiredCapacity: UNKNOWN }],
    ["the policy list", { policies: UNKNOWN }, { ...FILLED, policies: UNKNOWN }],
    ["one policy name, keeping the order", { policies: [{ policy: "z" }, { policy: UNKNOWN }] }, { ...FILLED, policies: [{ policy: "z", enabled: true }, { policy: UNKNOWN, enabled: true }] }],
  ])("lets the unknown sentinel through in place of %s", async (_, patch, filled) => {
    expect(await clusterHandler.check({}, { ...raw, ...patch })).toEqual({ inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER }, failures: [] });
  });
});

const OUTPUTS: Props = { status: "ACTIVE", statusReason: "ok", nodeIds: [], profileName: "pserver" };

async function diffOf(oldPatch: Props, newPatch: Props) {
  const { inputs: olds, failures: oldFailures } = await clusterHandler.check({}, { ...raw, ...oldPatch });
  const { inputs: news, failures } = await clusterHandler.check(olds, { ...raw, ...newPatch });
  expect([oldFailures, failures]).toEqual([[], []]);
  return clusterHandler.diff("id-1", { ...olds, ...OUTPUTS }, news);
}

const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };
const IN_PLACE = { changes: true, replaces: [], deleteBeforeReplace: false };

describe("senlin clusterHandler.diff", () => {
  it.each<[string, Props, Props, Props]>([
    ["plans nothing for the same inputs", {}, {}, NO_CHANGE],
    ["plans nothing when only the policy order changes", { policies: [{ policy: "a" }, { policy: "b" }] }, { policies: [{ policy: "b" }, { policy: "a", enabled: true }] }, NO_CHANGE],
    ["plans nothing for profileOnly alone", {}, { profileOnly: true }, NO_CHANGE],
    ["plans nothing for timeouts alone", {}, { timeouts: { update: "1m" } }, NO_CHANGE],
    ["changes the name in place", {}, { name: "renamed" }, IN_PLACE],
    ["changes the profile in place", {}, { profile: "pserver2" }, IN_PLACE],
    ["changes the capacity in place", {}, { desiredCapacity: 2 }, IN_PLACE],
    ["changes the bounds in place", {}, { maxSize: 9 }, IN_PLACE],
    ["changes metadata in place", {}, { metadata: { a: 1 } }, IN_PLACE],
    ["changes a policy's enabled in place", { policies: [{ policy: "a" }] }, { policies: [{ policy: "a", enabled: false }] }, IN_PLACE],
    ["shows a possible change for an unknown profile", {}, { profile: UNKNOWN }, IN_PLACE],
  ])("%s", async (_, oldPatch, newPatch, expected) => {
    expect(await diffOf(oldPatch, newPatch)).toEqual(expected);
  });

  it("keeps the derived name across updates", async () => {
    const { inputs: olds } = await clusterHandler.check({}, raw);
    const { inputs: news } = await clusterHandler.check(olds, { ...raw, desiredCapacity: 3 });
    expect(news.name).toBe(olds.name);
  });
});

describe("a senlin cluster state written by 0.2.0 (schema version 0: `timeout` in seconds)", () => {
  /** The inputs and outputs 0.2.0 recorded for a cluster created with `timeout: 1800`: no version, the old field. */
  async function recordedBy020(): Promise<Props> {
    const { inputs } = await clusterHandler.check({}, { ...raw, actionTimeout: "30m" });
    const { actionTimeout: _new, __schemaVersion: _version, ...rest } = inputs;
    return { ...rest, timeout: 1800, ...OUTPUTS };
  }

  it("checks a program of this release against it as the same cluster: the old inputs upgraded, no change planned", async () => {
    const olds = await recordedBy020();
    const { inputs, failures } = await clusterHandler.check(olds, { ...raw, actionTimeout: "30m" });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ name: olds.name, actionTimeout: "30m", __schemaVersion: 1 });
    expect(inputs).not.toHaveProperty("timeout");
    expect(await clusterHandler.diff("id-1", olds, inputs)).toEqual(NO_CHANGE);
  });

  it("reads a program still writing `timeout: 1800` as actionTimeout \"30m\": no change planned", async () => {
    const olds = await recordedBy020();
    const { inputs, failures } = await clusterHandler.check(olds, { ...raw, timeout: 1800 });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ actionTimeout: "30m", __schemaVersion: 1 });
    expect(inputs).not.toHaveProperty("timeout");
    expect(await clusterHandler.diff("id-1", olds, inputs)).toEqual(NO_CHANGE);
  });

  it("plans a real change of the action timeout as one in place", async () => {
    const olds = await recordedBy020();
    const { inputs } = await clusterHandler.check(olds, { ...raw, actionTimeout: "1h" });
    expect(await clusterHandler.diff("id-1", olds, inputs)).toEqual(IN_PLACE);
  });

  it("refuses a bad value under the retired name as under the new one, naming the new field", async () => {
    const { failures } = await clusterHandler.check({}, { ...raw, timeout: 0 });
    expect(failures).toEqual([{ property: "actionTimeout", reason: `actionTimeout ${ACTION_TIMEOUT} "0ms"` }]);
  });
});
