import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { allKinds } from "../../kinds";
import { generatedFiles } from "./generate";

const root = path.resolve(__dirname, "..", "..", "..");

describe("the files derived from the resource definitions", async () => {
  const files = await generatedFiles(root);
  it.each(files.map((f) => [f.path, f]))("%s is committed exactly as `npm run generate:schema` writes it", (_path, file) => {
    expect(readFileSync(path.join(root, file.path), "utf8")).toBe(file.text);
  });
});

describe("the package schema", async () => {
  const KINDS = await allKinds();
  const schema = JSON.parse((await generatedFiles(root, KINDS)).find((f) => f.path === "schema.json")!.text);
  it("has one resource per kind, under clusterform:<platform>:<Kind>", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(KINDS.map((k) => `clusterform:${k.type}`).sort());
  });

  it.each(KINDS.map((k) => [k.type, k]))("%s: replaceOnChanges marks exactly the fields the policy table replaces", (_type, kind) => {
    const resource = schema.resources[`clusterform:${kind.type}`];
    const marked = Object.entries(resource.inputProperties as Record<string, { replaceOnChanges?: boolean }>)
      .filter(([, p]) => p.replaceOnChanges)
      .map(([name]) => name)
      .sort();
    const replaced = Object.entries(kind.allInputs)
      .filter(([, f]) => f.policy?.kind === "replace")
      .map(([key, f]) => f.names?.pulumi ?? key)
      .sort();
    expect(marked).toEqual(replaced);
  });

  it.each(KINDS.map((k) => [k.type, k]))("%s: never exposes the hidden inputs (ownership marker, resource name)", (_type, kind) => {
    const resource = schema.resources[`clusterform:${kind.type}`];
    for (const hidden of ["resourceName", "autoNamed", "deleteBeforeReplace", "resourceUrn"]) {
      expect(resource.inputProperties).not.toHaveProperty(hidden);
    }
    // `owner` is a user field of jobs and vclusters (their owner), never the marker.
    if (resource.inputProperties.owner) expect(resource.inputProperties.owner.description).not.toMatch(/marker/);
  });

  it("marks kubeconfigs and credentials secret", () => {
    expect(schema.resources["clusterform:cmassh:Cluster"].properties.kubeconfig.secret).toBe(true);
    expect(schema.resources["clusterform:vcluster:VCluster"].properties.kubeconfig.secret).toBe(true);
    expect(schema.config.variables.senlinPassword.secret).toBe(true);
    expect(schema.provider.inputProperties.cyclecloudPassword.secret).toBe(true);
  });

  it("states each input's change policy in its description, with the operation", () => {
    const count = schema.resources["clusterform:cmassh:NodePool"].inputProperties.count;
    expect(count.description).toContain("Changes in place (ScaleNodePool).");
    expect(count.language.clusterform).toEqual({ kind: "update", operation: "ScaleNodePool" });
    expect(schema.resources["clusterform:cmassh:NodePool"].inputProperties.instanceType.description).toContain("replaces");
  });

  it("declares every object type a property refers to", () => {
    const refs = JSON.stringify(schema).match(/#\/types\/[^"]+/g) ?? [];
    for (const ref of new Set(refs)) expect(schema.types).toHaveProperty(ref.slice("#/types/".length));
  });
});
