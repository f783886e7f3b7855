import { afterAll, describe, expect, it } from "vitest";
import { configOf, decodedValue, dv, startTofuProvider, type TofuProvider } from "./testing";

// OpenTofu's UpgradeResourceState, driven in-process as tofu drives it: the stored JSON of an object
// (dynamic values as {value, type}) with the schema version tofu recorded beside it.

const TYPE = "clusterform_senlin_cluster";

/** A Senlin cluster as 0.2.0's provider stored it (schema version 0): `timeout` in seconds. */
const STORED_BY_020 = {
  id: "7d4b0f6e-3c1a-4a55-9d1e-2b8f0c3e5a71",
  name: "web",
  profile: "web-profile",
  min_size: 1,
  max_size: 4,
  desired_capacity: 2,
  timeout: 1800,
  metadata: { value: { team: "web" }, type: ["object", { team: "string" }] },
  config: { value: { "node.name.format": "web-$3I" }, type: ["object", { "node.name.format": "string" }] },
  policies: [{ policy: "deletion", enabled: true }],
  profile_only: null,
  capacity_owner: "program",
  deletion_policy: "delete",
  timeouts: null,
  status: "ACTIVE",
  status_reason: "Cluster creation succeeded.",
  node_ids: ["a", "b"],
  profile_name: "web-profile",
};

describe("UpgradeResourceState of a senlin cluster stored by 0.2.0", () => {
  let p: TofuProvider;
  afterAll(() => p?.stopper.stop());

  const upgrade = async (stored: object, version: bigint) => {
    p ??= await startTofuProvider({});
    return p.client.upgradeResourceState({ typeName: TYPE, version, rawState: { json: new TextEncoder().encode(JSON.stringify(stored)) } });
  };

  it("declares the type at schema version 1 (the 0.3.0 migration)", async () => {
    await upgrade(STORED_BY_020, 0n);
    expect(p.versionOf(TYPE)).toBe(1n);
    expect(p.versionOf("clusterform_senlin_profile")).toBe(0n);
  });

  it("stores timeout 1800 as action_timeout \"30m\", every other attribute as it was", async () => {
    const answer = await upgrade(STORED_BY_020, 0n);
    expect(answer.diagnostics).toEqual([]);
    const state = decodedValue(p.schemaOf(TYPE), answer.upgradedState);
    expect(state).toMatchObject({
      id: STORED_BY_020.id,
      name: "web",
      profile: "web-profile",
      min_size: 1,
      max_size: 4,
      desired_capacity: 2,
      action_timeout: "30m",
      metadata: { team: "web" },
      config: { "node.name.format": "web-$3I" },
      policies: [{ policy: "deletion", enabled: true }],
      capacity_owner: "program",
      deletion_policy: "delete",
      status: "ACTIVE",
      node_ids: ["a", "b"],
      profile_name: "web-profile",
    });
    // The retired attribute stays in the schema (to refuse a configuration setting it), never holding a value.
    expect(state?.timeout).toBeNull();
  });

  it("leaves state of the current version as stored (no migration runs twice)", async () => {
    const { timeout: _old, ...rest } = STORED_BY_020;
    const current = { ...rest, action_timeout: "45m" };
    const state = decodedValue(p.schemaOf(TYPE), (await upgrade(current, 1n)).upgradedState);
    expect(state).toMatchObject({ action_timeout: "45m", metadata: { team: "web" } });
  });

  it("refuses state a newer release wrote, naming the type and both versions", async () => {
    const answer = await upgrade(STORED_BY_020, 2n);
    expect(answer.diagnostics.map((d) => d.summary)).toEqual([
      "senlin:Cluster: this state was written by a newer Clusterform (state schema version 2; this release reads up to 1): use that release or a later one, so that no field it added is lost",
    ]);
  });
});

describe("a configuration still setting timeout, which 0.3.0 replaced", () => {
  let p: TofuProvider;
  afterAll(() => p?.stopper.stop());

  it("is refused at validation, on the attribute, naming what to write instead with the converted value", async () => {
    p = await startTofuProvider({});
    const schema = p.schemaOf(TYPE);
    const config = configOf(schema, { name: "web", profile: "web-profile", timeout: 1800 });
    const answer = await p.client.validateResourceConfig({ typeName: TYPE, config: dv(schema, config) });
    expect(answer.diagnostics.map((d) => ({ summary: d.summary, detail: d.detail, attribute: d.attribute?.steps.map((s) => s.selector.value) }))).toEqual([
      {
        summary: "Invalid timeout",
        detail: expect.stringMatching(/^timeout was replaced in 0\.3\.0 \(the action timeout was `timeout`, .*\): write action_timeout = "30m" instead$/),
        attribute: ["timeout"],
      },
    ]);
  });

  it("is declared deprecated in the schema and never stored", async () => {
    p ??= await startTofuProvider({});
    const answer = await p.client.getProviderSchema({});
    const attrs = answer.resourceSchemas[TYPE].block?.attributes ?? [];
    expect(attrs.find((a) => a.name === "timeout")).toMatchObject({ optional: true, computed: false, deprecated: true });
    expect(attrs.filter((a) => a.deprecated).map((a) => a.name)).toEqual(["timeout"]);
    const upgraded = decodedValue(p.schemaOf(TYPE), (await p.client.upgradeResourceState({ typeName: TYPE, version: 0n, rawState: { json: new TextEncoder().encode(JSON.stringify(STORED_BY_020)) } })).upgradedState);
    expect(upgraded?.timeout).toBeNull();
  });
});
