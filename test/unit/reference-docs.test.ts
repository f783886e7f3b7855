import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { codeBlocks, section, yamlProgramProblems } from "../../tools/reference-docs/doc-examples";
import { renderReference } from "../../tools/reference-docs/pages";
import type { PackageSpec, RenderOptions } from "../../tools/reference-docs/render";
import { repoRoot } from "../harness/paths";

const fixture = path.join(repoRoot(), "test", "fixtures", "schema", "nodepool-schema.json");

/** The options `npm run generate:reference` passes (package.json), so the check renders what it writes. */
function scriptOptions(): RenderOptions {
  const script: string = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")).scripts["generate:reference"];
  expect(script).toMatch(/^node tools\/reference-docs\/cli\.mjs schema\.json docs\/reference/);
  return { typescriptModule: /--typescript-module (\S+)/.exec(script)?.[1] };
}

/** Each schema with the folder its committed reference pages live in, and how they are rendered. */
const COMMITTED: { schema: string; folder: string; options: () => RenderOptions }[] = [
  { schema: fixture, folder: path.join(repoRoot(), "test", "fixtures", "schema", "reference"), options: () => ({}) },
  { schema: path.join(repoRoot(), "schema.json"), folder: path.join(repoRoot(), "docs", "reference"), options: scriptOptions },
];

function load(file: string): PackageSpec {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** The fixture with one change made to a copy of it. */
function variant(change: (s: PackageSpec) => void): PackageSpec {
  const s = load(fixture);
  change(s);
  return s;
}

function page(schema: PackageSpec, file: string): string {
  const found = renderReference(schema).find((p) => p.file === file);
  if (!found) throw new Error(`no page ${file}`);
  return found.text;
}

/** The inputs table row of one input, as its cells. */
function inputRow(text: string, input: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith(`| \`${input}\` |`));
  if (!line) throw new Error(`no row for ${input}`);
  return line.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "").trim());
}

const cli = path.join(repoRoot(), "tools", "reference-docs", "cli.mjs");

describe("reference docs from the package schema", () => {
  it.each(COMMITTED)("the committed pages in $folder are what the generator writes", ({ schema, folder, options }) => {
    const pages = renderReference(load(schema), options());
    const committed = readdirSync(folder).filter((f) => f.endsWith(".md")).sort();
    expect(committed).toEqual(pages.map((p) => p.file).sort());
    for (const p of pages) expect(readFileSync(path.join(folder, p.file), "utf8"), p.file).toBe(p.text);
  });

  it("gives each input its change policy: replace, or in place by the platform operation", () => {
    const text = page(load(fixture), "cmassh-node-pool.md");
    // | input | type | required | default | secret | on change | description |
    expect(inputRow(text, "clusterName").slice(1, 6)).toEqual(["string", "yes", "", "", "replace"]);
    expect(inputRow(text, "instanceType").slice(1, 6)).toEqual(["string", "no", '`"standard-2"`', "", "replace"]);
    expect(inputRow(text, "count")[5]).toBe("in place (`ScaleNodePool`)");
    // The default written in the description moves to the default column.
    expect(inputRow(text, "labels")).toEqual(["`labels`", "map of string", "no", "{}", "", "in place (`UpdateNodePoolLabels`)", "Kubernetes labels set on every node."]);
    const ignored = variant((s) => {
      s.resources!["clusterform:cmassh:NodePool"].inputProperties!.count.language = { clusterform: { kind: "ignore" } };
    });
    expect(inputRow(page(ignored, "cmassh-node-pool.md"), "count")[5]).toBe("no platform call");
    const noted = variant((s) => {
      s.resources!["clusterform:cmassh:NodePool"].inputProperties!.count.language = {
        clusterform: { kind: "update", operation: "ScaleNodePool", note: "then a wait for RUNNING" },
      };
    });
    expect(inputRow(page(noted, "cmassh-node-pool.md"), "count")[5]).toBe("in place (`ScaleNodePool`): then a wait for RUNNING");
    const unannotated = variant((s) => {
      const pool = s.resources!["clusterform:cmassh:NodePool"];
      delete pool.inputProperties!.count.language;
      delete pool.inputProperties!.clusterName.language;
    });
    expect(inputRow(page(unannotated, "cmassh-node-pool.md"), "count")[5]).toBe("decided by the provider");
    // Pulumi's own flag (on the output property) still says replace.
    expect(inputRow(page(unannotated, "cmassh-node-pool.md"), "clusterName")[5]).toBe("replace");
  });

  it("marks secret inputs and reads them from the stack configuration in every example", () => {
    const schema = variant((s) => {
      const pool = s.resources!["clusterform:cmassh:NodePool"];
      pool.inputProperties!.sshKey = { type: "string", secret: true, description: "Key for the nodes." };
      pool.requiredInputs!.push("sshKey");
    });
    const text = page(schema, "cmassh-node-pool.md");
    expect(inputRow(text, "sshKey")[4]).toBe("yes");
    expect(text).toContain('sshKey: config.requireSecret("sshKey"),');
    expect(text).toContain("config:\n  sshKey:\n    type: string\n    secret: true");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML's interpolation, not a template
    expect(text).toContain("sshKey: ${sshKey}");
    expect(text).toContain('SshKey:      cfg.RequireSecret("sshKey"),');
    expect(page(schema, "provider.md")).toMatch(/\| `clusterform:cmasshToken` \| string \| {2}\| yes \|/);
  });

  it("takes the import id from the description when the resource carries no annotation", () => {
    const schema = variant((s) => {
      delete s.resources!["clusterform:cmassh:NodePool"].language;
      s.resources!["clusterform:cmassh:NodePool"].description = "A pool.\n\n## Import\n\nThe import id is `<cluster>:<pool>`.";
    });
    const text = page(schema, "cmassh-node-pool.md");
    expect(text).toContain("Import id: `<cluster>:<pool>`.");
    // The description's own Import section is not repeated above the page's.
    expect(text.match(/## Import/g)).toHaveLength(1);
    const annotated = page(load(fixture), "cmassh-node-pool.md");
    expect(annotated).toContain("Import id: `<cluster>/<pool>`, for example `prod/workers`.");
    expect(annotated).toContain("pulumi import clusterform:cmassh:NodePool node-pool 'prod/workers'");
    expect(annotated).toContain("write them in the program: `instanceType`, `labels`.");
  });

  it("builds example values of referenced object and enum types", () => {
    const schema = variant((s) => {
      s.types = {
        "clusterform:cmassh:Taint": {
          type: "object",
          properties: { key: { type: "string" }, effect: { $ref: "#/types/clusterform:cmassh:Effect" } },
          required: ["key", "effect"],
        },
        "clusterform:cmassh:Effect": { type: "string", enum: [{ value: "NoSchedule" }, { value: "NoExecute" }] },
      };
      const pool = s.resources!["clusterform:cmassh:NodePool"];
      pool.inputProperties!.taints = { type: "array", items: { $ref: "#/types/clusterform:cmassh:Taint" } };
      pool.requiredInputs!.push("taints");
    });
    const text = page(schema, "cmassh-node-pool.md");
    expect(inputRow(text, "taints")[1]).toBe("list of Taint");
    expect(text).toContain('cmassh.TaintArray{&cmassh.TaintArgs{\n\t\t\t\tKey:    pulumi.String("my-key"),\n\t\t\t\tEffect: cmassh.Effect("NoSchedule"),');
    const yamlBlock = /```yaml\n([\s\S]*?)```/.exec(text)![1];
    expect(parse(yamlBlock).resources["node-pool"].properties.taints).toEqual([{ key: "my-key", effect: "NoSchedule" }]);
  });

  it("documents the fields of every object type an input uses, nested ones and enums too, each once", () => {
    const schema = variant((s) => {
      s.types = {
        "clusterform:cmassh:Taint": {
          type: "object",
          description: "A node taint.",
          properties: {
            key: { type: "string", description: "Taint key, <= 63 characters." },
            effect: { $ref: "#/types/clusterform:cmassh:Effect", description: "What the taint does. Default: NoSchedule." },
            match: { $ref: "#/types/clusterform:cmassh:Taint" },
          },
          required: ["key"],
        },
        "clusterform:cmassh:Effect": { type: "string", enum: [{ value: "NoSchedule", description: "New pods stay off." }, { value: "NoExecute" }] },
      };
      const pool = s.resources!["clusterform:cmassh:NodePool"];
      pool.inputProperties!.taints = { type: "array", items: { $ref: "#/types/clusterform:cmassh:Taint" } };
      pool.properties!.taints = { type: "array", items: { $ref: "#/types/clusterform:cmassh:Taint" } };
    });
    const text = page(schema, "cmassh-node-pool.md");
    const types = text.slice(text.indexOf("## Types"), text.indexOf("## Import"));
    expect(types).toContain("### Taint\n\nA node taint.\n\n| field | type | required | default | secret | description |");
    expect(types).toContain("| `key` | string | yes |  |  | Taint key, <= 63 characters. |");
    // The default sentence moves to its column, as in the inputs table.
    expect(types).toContain("| `effect` | Effect | no | NoSchedule |  | What the taint does. |");
    expect(types).toContain('| `"NoSchedule"` | New pods stay off. |');
    // Referenced from the inputs, the outputs and itself: documented once.
    expect(types.match(/### Taint/g)).toHaveLength(1);
    expect(types.indexOf("### Taint")).toBeLessThan(types.indexOf("### Effect"));
    // A resource that uses no object type gets no Types section.
    expect(page(load(fixture), "cmassh-node-pool.md")).not.toContain("## Types");
  });

  it("fails naming the token or reference that does not fit", () => {
    expect(() => renderReference(variant((s) => (s.resources = { "clusterform:NodePool": {} })))).toThrow(
      "resource token 'clusterform:NodePool': expected <package>:<module>:<Kind>",
    );
    const dangling = variant((s) => {
      const pool = s.resources!["clusterform:cmassh:NodePool"];
      pool.inputProperties!.clusterName = { $ref: "#/types/clusterform:cmassh:Missing" };
    });
    expect(() => renderReference(dangling)).toThrow("type reference '#/types/clusterform:cmassh:Missing'");
  });

  it("--check names a page that differs and one left over, and writing makes the folder pass", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "cf-ref-"));
    cpSync(COMMITTED[0].folder, folder, { recursive: true });
    const run = (...args: string[]) => spawnSync(process.execPath, [cli, fixture, folder, ...args], { encoding: "utf8" });
    expect(run("--check").status).toBe(0);
    writeFileSync(path.join(folder, "cmassh-node-pool.md"), "edited by hand\n");
    writeFileSync(path.join(folder, "cmassh-old-kind.md"), "a removed resource\n");
    const failed = run("--check");
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("cmassh-node-pool.md, cmassh-old-kind.md");
    expect(run().status).toBe(0);
    expect(run("--check").status).toBe(0);
    // The module the TypeScript examples import is part of what --check compares.
    expect(run("--typescript-module", "clusterform/native", "--check").status).toBe(1);
    expect(run("--typescript-module", "clusterform/native").status).toBe(0);
    expect(readFileSync(path.join(folder, "cmassh-node-pool.md"), "utf8")).toContain('import { cmassh } from "clusterform/native";');
    const unknown = run("--typescript");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("usage:");
  });

  it("gives an input its example value, and puts an optional input that has one in the examples", () => {
    const schema = variant((s) => {
      const pool = s.resources!["clusterform:cmassh:NodePool"];
      pool.inputProperties!.clusterName.language = { clusterform: { kind: "replace", example: "prod-eu" } };
      pool.inputProperties!.instanceType.language = { clusterform: { kind: "replace", example: "gpu" } };
    });
    const text = page(schema, "cmassh-node-pool.md");
    expect(text).toContain("The smallest program: the required inputs and `instanceType`.");
    expect(parse(codeBlocks(text, "yaml")[0]).resources["node-pool"].properties).toEqual({ clusterName: "prod-eu", count: 1, instanceType: "gpu" });
    expect(codeBlocks(text, "typescript")[0]).toContain('  clusterName: "prod-eu",\n  count: 1,\n  instanceType: "gpu",\n');
    expect(codeBlocks(text, "go")[0]).toContain('InstanceType: pulumi.String("gpu"),');
    expect(page(load(fixture), "cmassh-node-pool.md")).toContain("The smallest program: the required inputs only.");
  });

  it("imports the TypeScript example's classes from the module given, else from the schema's Node.js package", () => {
    const ts = codeBlocks(page(load(fixture), "cmassh-node-pool.md"), "typescript")[0];
    expect(ts).toMatch(/^import \{ cmassh \} from "@clusterform\/pulumi";\n\nconst nodePool = new cmassh\.NodePool\("node-pool", \{/);
    const native = codeBlocks(renderReference(load(fixture), { typescriptModule: "clusterform/native" }).find((p) => p.file === "cmassh-node-pool.md")!.text, "typescript")[0];
    expect(native).toMatch(/^import \{ cmassh \} from "clusterform\/native";\n/);
  });
});

describe("the lookups on the reference pages", () => {
  const schema = load(path.join(repoRoot(), "schema.json"));
  const pages = renderReference(schema, scriptOptions());

  it("documents every function on its kind's page: arguments, result, and an example in TypeScript, YAML, Go, Python and HCL", () => {
    const functions = Object.entries(schema.functions ?? {});
    expect(functions.length).toBeGreaterThan(0);
    for (const [token, f] of functions) {
      const annotations = f.language?.clusterform as { kind: string; dataSource: string } | undefined;
      const kind = annotations?.kind ?? "";
      const dataSource = annotations?.dataSource ?? "";
      const page = pages.find((p) => p.file === `${kind.split(":")[0]}-${kind.split(":")[1].replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md`);
      const name = token.split(":")[2];
      const text = section(page?.text ?? "", name);
      expect(text, token).toContain(`Function \`${token}\``);
      for (const lang of ["typescript", "yaml", "go", "python", "hcl"]) expect(codeBlocks(text, lang).length, `${token} ${lang}`).toBe(1);
      const yaml = parse(codeBlocks(text, "yaml")[0]);
      expect(yaml.variables.found["fn::invoke"].function, token).toBe(token);
      expect(codeBlocks(text, "hcl")[0], token).toContain(`data "${dataSource}" "found"`);
    }
  });
});

describe("the YAML examples of the reference pages", () => {
  const schema = load(path.join(repoRoot(), "schema.json"));
  const pages = renderReference(schema).filter((p) => p.text.includes("## Example"));

  it("declare, on every page, the page's resource with inputs the schema has, of the schema's types", () => {
    expect(pages.map((p) => p.file).sort()).toEqual(Object.keys(schema.resources!).map((t) => `${t.split(":")[1]}-${t.split(":")[2].replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md`).sort());
    for (const p of pages) {
      const [block] = codeBlocks(p.text, "yaml");
      const program = parse(block);
      const token = /^Token: `([^`]+)`$/m.exec(p.text)![1];
      expect({ page: p.file, types: Object.values(program.resources).map((r) => (r as { type: string }).type) }).toEqual({ page: p.file, types: [token] });
      expect({ page: p.file, problems: yamlProgramProblems(schema, program) }).toEqual({ page: p.file, problems: [] });
    }
  });

  it("the check finds an unknown type, a misspelt or missing input, a wrong type, a bad enum value and a dangling reference", () => {
    const withTaint = variant((s) => {
      s.types = {
        "clusterform:cmassh:Taint": { type: "object", properties: { key: { type: "string" }, effect: { $ref: "#/types/clusterform:cmassh:Effect" } }, required: ["key"] },
        "clusterform:cmassh:Effect": { type: "string", enum: [{ value: "NoSchedule" }] },
      };
      s.resources!["clusterform:cmassh:NodePool"].inputProperties!.taints = { type: "array", items: { $ref: "#/types/clusterform:cmassh:Taint" } };
    });
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: Pulumi YAML's interpolation, not templates
    const program = parse(
      [
        "resources:",
        "  a:",
        "    type: clusterform:cmassh:NodePol",
        "  b:",
        "    type: clusterform:cmassh:NodePool",
        "    properties:",
        "      clusterName: ${nowhere.name}",
        "      cuont: 3",
        "      labels: { tier: 1, owner: '${a.name}' }",
        "      taints:",
        "        - { key: k, effect: NoExecute, value: v }",
        "        - { effect: NoSchedule }",
        "  c:",
        "    type: aws:s3:Bucket",
      ].join("\n"),
    );
    expect(yamlProgramProblems(withTaint, program)).toEqual([
      "a: the schema has no resource type clusterform:cmassh:NodePol",
      'b: required input "count" missing',
      "b.clusterName: ${nowhere} names no config value, variable or resource",
      'b: clusterform:cmassh:NodePool has no input "cuont"',
      "b.labels.tier: expected a string, got 1",
      'b.taints[0].effect: "NoExecute" is not one of ["NoSchedule"]',
      'b.taints[0]: clusterform:cmassh:Taint has no field "value"',
      'b.taints[1]: required field "key" missing',
    ]);
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: Pulumi YAML's interpolation, not templates
  });
});
