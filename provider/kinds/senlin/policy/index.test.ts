import { describe, expect, it } from "vitest";
import { senlinPolicy } from "./kind";
import { testHandler } from "../../testing";

const policyHandler = testHandler(senlinPolicy);

type Props = Record<string, unknown>;

const SPEC = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } };
const raw: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "del", spec: SPEC, deleteBeforeReplace: false };

describe("senlin policyHandler", () => {
  it("derives a name from the owner and the spec", async () => {
    const { inputs, failures } = await policyHandler.check({}, raw);
    expect(failures).toEqual([]);
    expect(inputs.name).toMatch(/^del-[0-9a-f]{7}$/);
    expect((await policyHandler.check({}, { ...raw, owner: "fedcba9876543210" })).inputs.name).not.toBe(inputs.name);
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a missing spec", { spec: undefined }, [{ property: "spec", reason: "spec is required" }]],
    ["a type with a dash", { spec: { ...SPEC, type: "senlin-policy" } }, [{ property: "", reason: 'spec.type must be a policy type: dotted lower-case words such as "senlin.policy.deletion", got "senlin-policy"' }]],
    ["a negative version", { spec: { ...SPEC, version: -1 } }, [{ property: "", reason: 'spec.version must be a plugin version such as "1.0" (a "major.minor" string or a number), got -1' }]],
    ["a name with a space", { name: "del policy" }, [{ property: "name", reason: expect.stringMatching(/^name must be a Senlin name: .* got "del policy"$/) }]],
    ["metadata, which policies do not have", { metadata: {} }, [{ property: "metadata", reason: "metadata is not a known field" }]],
    ["a spec given as a string", { spec: "senlin.policy.deletion" }, [{ property: "spec", reason: 'spec must be an object, got "senlin.policy.deletion"' }]],
    ["a spec given as a list", { spec: [] }, [{ property: "spec", reason: "spec must be an object, got []" }]],
    ["a spec without its type", { spec: { version: "1.0" } }, [{ property: "", reason: "spec.type is required" }]],
    ["a spec without its version", { spec: { type: SPEC.type } }, [{ property: "", reason: "spec.version is required" }]],
    ["an empty type", { spec: { ...SPEC, type: "" } }, [{ property: "", reason: `spec.type must be a policy type: dotted lower-case words such as "senlin.policy.deletion", got ""` }]],
    ["a type with capitals", { spec: { ...SPEC, type: "Senlin.Policy" } }, [{ property: "", reason: `spec.type must be a policy type: dotted lower-case words such as "senlin.policy.deletion", got "Senlin.Policy"` }]],
    ["a type given as a number", { spec: { ...SPEC, type: 5 } }, [{ property: "", reason: `spec.type must be a policy type: dotted lower-case words such as "senlin.policy.deletion", got 5` }]],
    ["a version without its minor part", { spec: { ...SPEC, version: "1" } }, [{ property: "", reason: `spec.version must be a plugin version such as "1.0" (a "major.minor" string or a number), got "1"` }]],
    ["a version given as a boolean", { spec: { ...SPEC, version: true } }, [{ property: "", reason: `spec.version must be a plugin version such as "1.0" (a "major.minor" string or a number), got true` }]],
    ["properties given as a string", { spec: { ...SPEC, properties: "x" } }, [{ property: "", reason: 'spec.properties must be an object of keys to JSON values, got "x"' }]],
    ["a spec field Senlin does not have", { spec: { ...SPEC, criteria: "OLDEST_FIRST" } }, [{ property: "", reason: "spec.criteria is not a known field" }]],
    ["an empty name", { name: "" }, [{ property: "name", reason: `name must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-', got ""` }]],
    ["a name given as a number", { name: 7 }, [{ property: "name", reason: `name must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-', got 7` }]],
    ["a field policies do not have", { cluster: "c" }, [{ property: "cluster", reason: "cluster is not a known field" }]],
  ])("rejects %s", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await policyHandler.check({}, news)).toEqual({ inputs: news, failures });
  });

  it.each<[string, Props, Props]>([
    ["the name in place", { name: "renamed" }, { changes: true, replaces: [], deleteBeforeReplace: false }],
    ["a new spec by replacement, create-first", { spec: { ...SPEC, properties: { criteria: "YOUNGEST_FIRST" } } }, { changes: true, replaces: ["spec"], deleteBeforeReplace: false }],
  ])("changes %s", async (_, patch, expected) => {
    const { inputs: olds } = await policyHandler.check({}, raw);
    const { inputs: news } = await policyHandler.check(olds, { ...raw, ...patch });
    expect(await policyHandler.diff("id", { ...olds, policyType: "senlin.policy.deletion-1.0" }, news)).toEqual(expected);
  });
});

describe("senlin policyHandler without the SDK's deleteBeforeReplace (the native plugin)", () => {
  it("replaces create-first, the kind's order", async () => {
    const { deleteBeforeReplace: _, ...bare } = raw;
    const { inputs: olds } = await policyHandler.check({}, bare);
    expect(olds.deleteBeforeReplace).toBeUndefined();
    const { inputs: news } = await policyHandler.check(olds, { ...bare, spec: { ...SPEC, version: "1.1" } });
    expect(await policyHandler.diff("id", olds, news)).toEqual({ changes: true, replaces: ["spec"], deleteBeforeReplace: false });
  });
});
