import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../test/harness/paths";
import { providerSource } from "./resource";

// The loader Pulumi's dynamic provider host turns a `__provider` text into a module with.
const requireFromString: (code: string, filename?: string) => { handler: () => Record<string, (...args: unknown[]) => unknown> } =
  require("require-from-string");

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/** Arguments each provider method receives, distinct per method so a mix-up shows. */
const ARGS: Record<(typeof METHODS)[number], unknown[]> = {
  configure: [{ config: "cfg" }],
  check: [{ o: 1 }, { n: 1 }],
  diff: ["id-d", { o: 2 }, { n: 2 }],
  create: [{ n: 3 }],
  read: ["id-r", { p: 4 }],
  update: ["id-u", { o: 5 }, { n: 5 }],
  delete: ["id-x", { p: 6 }],
};

/**
 * A folder whose node_modules holds a stand-in for `clusterform/provider`: every exported function
 * returns what it was called with, so a test sees exactly what a `__provider` text calls.
 */
function fakeEntryProgram(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-provider-text-"));
  const pkg = path.join(dir, "node_modules", "clusterform");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "clusterform", exports: { "./provider": "./provider.js" } }));
  const methods = METHODS.map((m) => `exports[${JSON.stringify(m)}] = (...args) => ({ called: ${JSON.stringify(m)}, args });`).join("\n");
  writeFileSync(path.join(pkg, "provider.js"), `${methods}\nexports.dynamicProvider = (type) => ({ builtFor: type });\n`);
  return path.join(dir, "index.js");
}

describe("providerSource", () => {
  let program: string;
  beforeAll(() => {
    program = fakeEntryProgram();
  });

  it("is one line of under 100 bytes naming the entry point and the type", () => {
    const text = providerSource("clusterform/provider", "peloton:StatelessJob");
    expect(text).toBe('exports.handler = () => require("clusterform/provider").dynamicProvider("peloton:StatelessJob");');
    expect(text).not.toContain("\n");
    expect(Buffer.byteLength(text)).toBeLessThan(100);
  });

  it("loads as Pulumi loads it, and its handler returns the entry point's provider of that type", () => {
    const loaded = requireFromString(providerSource("clusterform/provider", "vcluster:Snapshot"), program);
    expect(loaded.handler()).toEqual({ builtFor: "vcluster:Snapshot" });
  });

  it("quotes whatever the module and type hold", () => {
    const text = providerSource('a"b', "t\\\n");
    expect(text).toBe('exports.handler = () => require("a\\"b").dynamicProvider("t\\\\\\n");');
  });
});

describe("the __provider text of release 0.1.0, as stored in state", () => {
  const stored = readFileSync(path.join(repoRoot(), "test", "fixtures", "serialized-shim", "peloton-ResourcePool.txt"), "utf8");

  it.each(METHODS)("routes %s to the entry point's function of that name, type first", (method) => {
    const provider = requireFromString(stored, fakeEntryProgram()).handler();
    expect(provider[method](...ARGS[method])).toEqual({ called: method, args: ["peloton:ResourcePool", ...ARGS[method]] });
  });
});
