import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { senlinProfile } from "./kind";
import { testHandler } from "../../testing";

const profileHandler = testHandler(senlinProfile);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';
const SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
/** What the SDK sends for `new senlin.Profile("web", { spec })`. */
const raw: Props = { __provider: PROVIDER, owner: "0123456789abcdef", resourceName: "web", spec: SPEC };
const DERIVED = /^web-[0-9a-f]{7}$/;

describe("senlin profileHandler.check", () => {
  it("derives a name from the resource name, the owner and the spec", async () => {
    const { inputs, failures } = await profileHandler.check({}, raw);
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ name: expect.stringMatching(DERIVED), autoNamed: true, spec: SPEC });
    const other = await profileHandler.check({}, { ...raw, spec: { ...SPEC, properties: { ...SPEC.properties, image: "debian" } } });
    expect(other.inputs.name).not.toBe(inputs.name);
  });

  it("keeps a chosen name and prefixes a derived one that would start with a digit", async () => {
    expect((await profileHandler.check({}, { ...raw, name: "Web_1.a" })).inputs).toMatchObject({ name: "Web_1.a", autoNamed: false });
    expect((await profileHandler.check({}, { ...raw, resourceName: "1st" })).inputs.name).toMatch(/^profile-1st-[0-9a-f]{7}$/);
  });

  it("accepts a numeric version and leaves the name unknown while the spec is", async () => {
    expect((await profileHandler.check({}, { ...raw, spec: { ...SPEC, version: 1 } })).failures).toEqual([]);
    const { inputs } = await profileHandler.check({}, { ...raw, spec: { ...SPEC, properties: { image: UNKNOWN } } });
    expect(inputs.name).toBe(UNKNOWN);
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a missing spec", { spec: undefined }, [{ property: "spec", reason: "spec is required" }]],
    ["a spec given as a string", { spec: "os.nova.server" }, [{ property: "spec", reason: expect.stringContaining('spec must be an object') }]],
    ["a spec without its type", { spec: { version: "1.0" } }, [{ property: "", reason: "spec.type is required" }]],
    [
      "a type with capitals and spaces",
      { spec: { ...SPEC, type: "OS Nova" } },
      [{ property: "", reason: 'spec.type must be a profile type: dotted lower-case words such as "os.nova.server", got "OS Nova"' }],
    ],
    ["a version that is not major.minor", { spec: { ...SPEC, version: "v1" } }, [{ property: "", reason: 'spec.version must be a plugin version such as "1.0" (a "major.minor" string or a number), got "v1"' }]],
    ["properties given as a list", { spec: { ...SPEC, properties: ["a"] } }, [{ property: "", reason: 'spec.properties must be an object of keys to JSON values, got ["a"]' }]],
    ["a spec field Senlin does not have", { spec: { ...SPEC, flavor: "m1" } }, [{ property: "", reason: "spec.flavor is not a known field" }]],
    ["a name starting with a digit", { name: "1web" }, [{ property: "name", reason: expect.stringMatching(/^name must be a Senlin name: .* got "1web"$/) }]],
    ["metadata given as a list", { metadata: [1] }, [{ property: "metadata", reason: "metadata must be an object of keys to JSON values, got [1]" }]],
    [
      "the reserved metadata key",
      { metadata: { "clusterform.dev/owner": "x" } },
      [{ property: "", reason: 'metadata key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner to mark the profiles it created, got "x"' }],
    ],
    ["a field profiles do not have", { image: "cirros" }, [{ property: "image", reason: "image is not a known field" }]],
    ["a spec given as a list", { spec: [] }, [{ property: "spec", reason: "spec must be an object, got []" }]],
    ["a spec without its version", { spec: { type: SPEC.type } }, [{ property: "", reason: "spec.version is required" }]],
    ["a type ending in a dot", { spec: { ...SPEC, type: "os." } }, [{ property: "", reason: 'spec.type must be a profile type: dotted lower-case words such as "os.nova.server", got "os."' }]],
    ["null properties", { spec: { ...SPEC, properties: null } }, [{ property: "", reason: "spec.properties must be an object of keys to JSON values, got null" }]],
    ["a name with a slash", { name: "web/a" }, [{ property: "name", reason: `name must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-', got "web/a"` }]],
  ])("rejects %s, naming the field, the value and what is allowed", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await profileHandler.check({}, news)).toEqual({ inputs: news, failures });
  });
});

async function diffOf(oldPatch: Props, newPatch: Props) {
  const { inputs: olds } = await profileHandler.check({}, { ...raw, ...oldPatch });
  const { inputs: news, failures } = await profileHandler.check(olds, { ...raw, ...newPatch });
  expect(failures).toEqual([]);
  return { olds, news, diff: await profileHandler.diff("id-1", { ...olds, profileType: "os.nova.server-1.0" }, news) };
}

describe("senlin profileHandler.diff", () => {
  it.each<[string, Props, Props, Props]>([
    ["plans nothing for the same inputs", {}, {}, { changes: false, replaces: [], deleteBeforeReplace: false }],
    ["plans nothing for the same spec with its keys in another order", {}, { spec: { properties: SPEC.properties, version: "1.0", type: SPEC.type } }, { changes: false, replaces: [], deleteBeforeReplace: false }],
    ["changes the name in place", {}, { name: "renamed" }, { changes: true, replaces: [], deleteBeforeReplace: false }],
    ["changes metadata in place", {}, { metadata: { team: "a" } }, { changes: true, replaces: [], deleteBeforeReplace: false }],
    [
      "replaces on a new spec, create-first as the SDK sends it",
      { deleteBeforeReplace: false },
      { deleteBeforeReplace: false, spec: { ...SPEC, properties: { flavor: "m1.large", image: "cirros" } } },
      { changes: true, replaces: ["spec"], deleteBeforeReplace: false },
    ],
    [
      "replaces a chosen-name profile create-first too: the identity is the spec, not the name",
      { name: "web", deleteBeforeReplace: false },
      { name: "web", deleteBeforeReplace: false, spec: { ...SPEC, version: "1.1" } },
      { changes: true, replaces: ["spec"], deleteBeforeReplace: false },
    ],
  ])("%s", async (_, oldPatch, newPatch, expected) => {
    expect((await diffOf(oldPatch, newPatch)).diff).toEqual(expected);
  });

  it("gives a replacement a new derived name", async () => {
    const { olds, news } = await diffOf({}, { spec: { ...SPEC, version: "1.1" } });
    expect(news.name).not.toBe(olds.name);
  });
});
