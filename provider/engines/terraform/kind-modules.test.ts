import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { Kind } from "../../core/definition/kind";
import { KINDS } from "../../kinds/kinds";
import { KIND_MODULES, TYPE_NAMES } from "./kind-modules";
import { terraformTypeName } from "./schema";

describe("the kinds the provider loads one at a time", () => {
  it("are exactly the kinds of this release, in KINDS' order", () => {
    expect(TYPE_NAMES).toEqual(KINDS.map((k) => terraformTypeName(k.type)));
  });

  it("name, for each type, the module and export holding that kind's definition", async () => {
    for (const [name, { module, exported }] of Object.entries(KIND_MODULES)) {
      const kind = (await import(/* @vite-ignore */ path.join(__dirname, "..", "..", "kinds", `${module}.ts`)))[exported] as Kind;
      expect(kind, name).toBe(KINDS.find((k) => terraformTypeName(k.type) === name));
    }
  });
});
