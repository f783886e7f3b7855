import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { writeMirror } from "./mirror";

/** Writes a package folder with a manifest (and one file). */
function pkg(dir: string, manifest: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
  writeFileSync(path.join(dir, "index.js"), `module.exports = ${JSON.stringify(manifest.name)};\n`);
}

describe("the filesystem mirror's provider package", () => {
  it("holds the runtime dependencies of the package's dependencies too, hoisted or nested, each once", () => {
    // npm's layout in an app: the package and its dependencies side by side, hoisted.
    const app = mkdtempSync(path.join(os.tmpdir(), "cf-mirror-"));
    const modules = path.join(app, "node_modules");
    const root = path.join(modules, "clusterform");
    pkg(root, { name: "clusterform", version: "9.9.9", dependencies: { direct: "^1" } });
    mkdirSync(path.join(root, "dist"));
    writeFileSync(path.join(root, "dist", "main.js"), "");
    pkg(path.join(modules, "direct"), { name: "direct", dependencies: { hoisted: "^1", nested: "^2" }, peerDependencies: { peer: "^1" }, optionalDependencies: { absent: "^1" } });
    pkg(path.join(modules, "direct", "node_modules", "nested"), { name: "nested", version: "2.0.0", dependencies: { deep: "^1" } });
    pkg(path.join(modules, "nested"), { name: "nested", version: "1.0.0" });
    pkg(path.join(modules, "hoisted"), { name: "hoisted", dependencies: { deep: "^1" } });
    pkg(path.join(modules, "deep"), { name: "deep" });
    pkg(path.join(modules, "peer"), { name: "peer" });

    const { packageDir } = writeMirror(path.join(app, "mirror"), undefined, root);
    const lib = path.join(packageDir, "lib", "node_modules");
    for (const name of ["direct", "hoisted", "deep", "peer"]) expect(existsSync(path.join(lib, name, "index.js")), name).toBe(true);
    // The dependency's own version stays under it; the hoisted other version is not taken for it.
    expect(JSON.parse(readFileSync(path.join(lib, "direct", "node_modules", "nested", "package.json"), "utf8")).version).toBe("2.0.0");
    expect(existsSync(path.join(lib, "nested"))).toBe(false);
    expect(existsSync(path.join(lib, "absent"))).toBe(false);
  });
});
