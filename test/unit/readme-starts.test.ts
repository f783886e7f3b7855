import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_MIN } from "../../common/node-version";
import { sectionFiles } from "../../tools/reference-docs/doc-examples";
import { repoRoot } from "../harness/paths";

/**
 * The starts of README.md and the docs that repeat them, as a user follows them in a folder of
 * their own: they install the packed package by its path (npm pack's tarball, wherever it lies), and
 * stop the local control plane they start. test/e2e/sdk-generation.test.ts compiles the TypeScript
 * start; test/e2e/languages-lifecycle.test.ts runs the YAML one.
 */

const version = (JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string }).version;
const INSTALL = `npm install /path/to/clusterform-${version}.tgz`;

const files = ["README.md", ...readdirSync(path.join(repoRoot(), "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const text = (file: string) => readFileSync(path.join(repoRoot(), file), "utf8");

/** The lines of a file as a shell would run them: indentation and trailing comments dropped. */
function commandLines(file: string): { line: number; command: string }[] {
  return text(file)
    .split("\n")
    .map((l, i) => ({ line: i + 1, command: l.trim().replace(/\s+#.*$/, "") }));
}

describe("the README's starts and the docs that repeat them", () => {
  it("install the package by the tarball's path, the same way everywhere", () => {
    const installs = files.flatMap((file) =>
      commandLines(file)
        // The clone's own build (README, "Getting the package") installs the repository's dependencies.
        .filter(({ command }) => command.startsWith("npm install") && command !== "npm install && npm pack")
        .map(({ line, command }) => ({ at: `${file}:${line}`, layoutIndependent: command === INSTALL || command.startsWith(`${INSTALL} `) })),
    );
    expect(installs.length).toBeGreaterThanOrEqual(7);
    expect(installs.filter((i) => !i.layoutIndependent)).toEqual([]);
  });

  it("never point at the tarball from a package.json, whose relative path works in one folder layout only", () => {
    const ts = sectionFiles(text("README.md"), "TypeScript with the dynamic classes");
    expect(JSON.parse(ts["package.json"]).dependencies).toEqual({ "@pulumi/pulumi": expect.any(String) });
    for (const file of files) expect({ file, tarballPaths: text(file).match(/file:[^\s"'`]*\.tgz/g) }).toEqual({ file, tarballPaths: null });
  });

  it("stop every local control plane they start in the background, by its data folder", () => {
    for (const file of files) {
      const lines = commandLines(file).map((l) => l.command);
      lines.forEach((command, i) => {
        if (!/^npx clusterform-local\b.*&$/.test(command)) return;
        const data = /--data (\S+)/.exec(command)?.[1];
        const stop = data ? `npx clusterform-local stop --data ${data}` : "npx clusterform-local stop";
        expect({ file, start: command, stop: lines.slice(i + 1).find((l) => l.startsWith("npx clusterform-local stop")) }).toEqual({ file, start: command, stop });
      });
    }
  });

  it("say at the top that the package's commands need the Node.js of package.json's engines", () => {
    const opening = text("README.md").split("\n## ")[0];
    expect(opening).toContain(`they need **Node.js >= ${NODE_MIN}** on \`PATH\``);
    expect(opening).toContain("they install their own Node.js");
  });
});
