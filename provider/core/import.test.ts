import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dynamicMethods } from "../engines/dynamic/provider";
import { DYNAMIC_ENGINE } from "../engines/dynamic/engine";
import { KIND_TYPES, kindOf } from "../kinds";
import { type ImportDefinition, type LiveObject, SILENT } from "./contract";
import type { Kind } from "./definition/kind";
import { Holds, memoryHoldStore } from "./holds";
import { importIdentityOf } from "./import";
import { ownerMarker } from "./naming";
import { COMMON_IGNORED } from "./planner";
import { createCore } from "./runtime";
import { IMPORT_UNREPORTED, withUnreportedAdopted } from "./unreported";

type Props = Record<string, unknown>;

/** A made-up kind: `name` and `color` replace, `size` changes in place; check trims the name and derives `slug`. */
const widgetKind = {
  type: "test:Widget",
  allInputs: {},
  outputs: {},
  schema: z
    .object({ owner: z.string(), resourceName: z.string(), name: z.string().transform((s) => s.trim()), size: z.number(), color: z.string(), slug: z.string().optional() })
    .strict(),
  policies: { ...COMMON_IGNORED, slug: { kind: "ignore" }, name: { kind: "replace" }, color: { kind: "replace" }, size: { kind: "update", operation: "Resize" } },
  complete: (olds: Props, news: Props) => ({ ...news, slug: typeof olds.slug === "string" ? olds.slug : `${news.owner}-${news.name}` }),
  identity: (inputs: Props) => String(inputs.name),
  planner: { update: () => [], create: () => [], delete: () => [] },
  importId: { shape: "`w-` and digits", example: "w-1", unreported: ["color"] },
} as unknown as Kind;

const newCore = () => createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
const handler = dynamicMethods(newCore(), async () => widgetKind);

const ID = { owner: "me", resourceName: "w" };

function widgetImport(read: (id: string) => LiveObject | undefined, extra: Partial<ImportDefinition> = {}) {
  const reads: string[] = [];
  const def: ImportDefinition = {
    platform: "cmassh",
    idPattern: /^w-\d+$/,
    placeholders: { color: "none" },
    read: async (_ctx, id) => {
      reads.push(id);
      return read(id);
    },
    ...extra,
  };
  const kind = { ...widgetKind, importer: async () => def } as Kind;
  const importer = { importObject: (id: string, identity: typeof ID) => newCore().import(kind, { id, identity }) };
  return { importer, reads };
}

describe("import through the core", () => {
  it("normalizes the reported inputs through check, marks the name user-chosen and lists what was not reported", async () => {
    const { importer } = widgetImport(() => ({ inputs: { name: " a ", size: 2 }, outputs: { state: "READY" } }));
    expect(await importer.importObject("w-1", ID)).toEqual({
      id: "w-1",
      inputs: { name: "a", size: 2, slug: "me-a", ...ID },
      props: { name: "a", size: 2, slug: "me-a", ...ID, state: "READY", [IMPORT_UNREPORTED]: ["color"] },
    });
  });

  it("gives check the kind's prior inputs, so an id check would derive is kept as the object's", async () => {
    const { importer } = widgetImport(() => ({ inputs: { name: "a", size: 2, color: "red" }, outputs: {}, prior: { slug: "theirs" } }));
    const result = await importer.importObject("w-1", ID);
    expect(result.inputs.slug).toBe("theirs");
    expect(result.props).not.toHaveProperty(IMPORT_UNREPORTED);
  });

  it.each(["w-", "x-1", "w-1/2", ""])("refuses the id %j before any read, naming the kind, the id and the shape", async (bad) => {
    const { importer, reads } = widgetImport(() => undefined);
    await expect(importer.importObject(bad, ID)).rejects.toThrow(
      `importing test:Widget ${JSON.stringify(bad)}: BAD_IMPORT_ID: ${JSON.stringify(bad)} has the wrong shape: the import id of test:Widget is \`w-\` and digits, such as "w-1"`,
    );
    expect(reads).toEqual([]);
  });

  it("fails, naming the id, when the platform has no such object", async () => {
    const { importer } = widgetImport(() => undefined);
    await expect(importer.importObject("w-9", ID)).rejects.toThrow(/^importing test:Widget "w-9": IMPORT_NOT_FOUND: no such object at http:\/\/127\.0\.0\.1:9020; the import id/);
  });

  it("fails when the live object's settings are outside what check accepts", async () => {
    const { importer } = widgetImport(() => ({ inputs: { name: "a", size: "big" }, outputs: {} }));
    await expect(importer.importObject("w-1", ID)).rejects.toThrow(/^importing test:Widget "w-1": NOT_IMPORTABLE: the object's settings are outside what Clusterform accepts: size/);
  });
});

describe("importIdentityOf", () => {
  it.each<[string, string, string, string]>([
    ["urn:pulumi:dev::clusters::clusterform:cmassh:Cluster::prod", "dev", "clusters", "prod"],
    ["urn:pulumi:dev::clusters::my:Component$clusterform:cmassh:NodePool::gpu", "dev", "clusters", "gpu"],
    ["urn:pulumi:dev::clusters::clusterform:cmassh:Cluster::a::b", "dev", "clusters", "a::b"],
  ])("reads %s as the SDK's owner marker and name", (urn, stack, project, name) => {
    expect(importIdentityOf(urn)).toEqual({ owner: ownerMarker(project, stack, name), resourceName: name });
  });

  it.each(["prod", "urn:pulumi:dev::clusters::clusterform:cmassh:Cluster", "urn:pulumi:dev::clusters::clusterform:cmassh:Cluster::"])("refuses %j, naming it", (urn) => {
    expect(() => importIdentityOf(urn)).toThrow(`clusterform: cannot read the resource's identity from URN ${JSON.stringify(urn)}: expected urn:pulumi:<stack>::<project>::<type>::<name>`);
  });
});

describe("withUnreportedAdopted", () => {
  it.each<[string, Props, Props, Props]>([
    ["takes an unreported field from the program while the state lacks it", { a: 1, [IMPORT_UNREPORTED]: ["b"] }, { a: 1, b: 2 }, { a: 1, b: 2, [IMPORT_UNREPORTED]: ["b"] }],
    ["keeps an unreported field the old inputs now hold", { b: 1, [IMPORT_UNREPORTED]: ["b"] }, { b: 2 }, { b: 1, [IMPORT_UNREPORTED]: ["b"] }],
    ["never touches a reported field", { a: 1, [IMPORT_UNREPORTED]: ["b"] }, { a: 5, b: 2 }, { a: 1, b: 2, [IMPORT_UNREPORTED]: ["b"] }],
    ["does nothing to a state no import wrote", { a: 1 }, { a: 1, b: 2 }, { a: 1 }],
  ])("%s", (_, olds, news, expected) => {
    expect(withUnreportedAdopted(olds, news)).toEqual(expected);
  });

  it("makes diff plan nothing for an unreported replace field right after an import, and the replacement once it is known", async () => {
    const imported = { name: "a", size: 2, owner: "me", resourceName: "w", [IMPORT_UNREPORTED]: ["color"] };
    const news = { name: "a", size: 2, color: "red", owner: "me", resourceName: "w" };
    expect(await handler.diff("w-1", imported, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(await handler.diff("w-1", { ...imported, color: "red" }, { ...news, color: "blue" })).toMatchObject({ changes: true, replaces: ["color"] });
  });
});

describe("every kind's import", () => {
  it("has an example id of the right shape for every kind; its reference page gives both and the unreported inputs, and docs/import.md links to it", async () => {
    const doc = readFileSync(join(__dirname, "../../docs/import.md"), "utf8");
    expect(KIND_TYPES.length).toBe(11);
    for (const type of KIND_TYPES) {
      const kind = await kindOf(type);
      const { idPattern } = await kind.importer();
      const { example: idExample, shape: idShape, unreported = [] } = kind.importId!;
      expect(idPattern.test(idExample), `${type} example ${idExample}`).toBe(true);
      const page = type.replace(":", "-").replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase(); // cmassh:NodePool: cmassh-node-pool
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${type}\` |`));
      expect(row, type).toContain(`(reference/${page}.md#import)`);
      const reference = readFileSync(join(__dirname, `../../docs/reference/${page}.md`), "utf8");
      const section = reference.slice(reference.indexOf("## Import"));
      for (const text of [`Import id: ${idShape}`, `\`${idExample}\``, ...unreported.map((f) => `\`${f}\``)]) expect(section, type).toContain(text);
    }
  });

  it("names the kinds this release serves for one it does not know", async () => {
    await expect(kindOf("cmassh:Machine")).rejects.toThrow(/^clusterform: unknown resource type "cmassh:Machine"; this release knows: cmassh:Cluster, /);
  });
});
