import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

// The console's browser code (app/, TSX with the DOM's types) has a tsconfig of its own, which the
// repository's typecheck (Node's types, no JSX) leaves out: it is checked here.
describe("the web console's browser code", () => {
  it("typechecks against the DOM and Preact's types", () => {
    const root = path.resolve(__dirname, "..", "..");
    const run = () => execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(__dirname, "app", "tsconfig.json")], { encoding: "utf8" });
    expect(run).not.toThrow();
  }, 120_000);
});
