import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/cmassh-stack";
import { engineEnv, pulumiBinDir } from "../harness/engine";
import { repoRoot, workDir } from "../harness/paths";
import { ccNodes, openCycleCloudStack } from "./cyclecloud-support";

const execFileAsync = promisify(execFile);

/**
 * examples/ci/plan.sh on a real stack, as a CI runs it: a real `pulumi preview --json`, the packed
 * package's `clusterform` command, the Markdown it writes and its exit code. Two previews: a
 * scale-down (disruptive, exit 3) and a scale-up (exit 2).
 */
describe("examples/ci/plan.sh: the operations plan of a real preview, as Markdown", () => {
  let t: TestStack;
  let dir: string;

  /** Runs the script in the program's folder; resolves with its exit code and the Markdown written. */
  async function runScript(keep?: string): Promise<{ code: number; markdown: string; stdout: string }> {
    const out = path.join(dir, "plan.md");
    const env = {
      ...process.env,
      ...engineEnv(),
      PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
      CLUSTERFORM_BIN: path.join(t.workspace, "node_modules", ".bin", "clusterform"),
      ...(keep ? { PREVIEW_JSON: keep } : {}),
    };
    const script = path.join(repoRoot(), "examples", "ci", "plan.sh");
    const stackName = t.stack.stack.name;
    try {
      const { stdout } = await execFileAsync("bash", [script, stackName, out], { cwd: t.programDir, env });
      return { code: 0, markdown: readFileSync(out, "utf8"), stdout };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      if (typeof e.code !== "number") throw err;
      return { code: e.code, markdown: readFileSync(out, "utf8"), stdout: `${e.stdout}\n${e.stderr}` };
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(workDir(), "plan-ci-"));
    t = await openCycleCloudStack();
    await t.configure({ pools: { work: { count: 3 } } });
    await t.stack.up();
  });
  afterAll(async () => {
    await t?.plane.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a scale-down names the nodes it removes, is flagged, and exits 3", async () => {
    const names = (await ccNodes(t.plane)).map((n) => n.name).sort();
    expect(names).toEqual(["execute-1", "execute-2", "execute-3"]);
    await t.configure({ pools: { work: { count: 1 } } });
    const { code, markdown } = await runScript(process.env.CLUSTERFORM_RECORD_PREVIEW);
    expect(code).toBe(3);
    expect(markdown).toContain("**1** resource(s) change, **1** platform call(s), **1** disruptive.");
    expect(markdown).toMatch(/\| ⚠️ \| `work` cyclecloud:NodePool \| update \| 1\. `RemoveNodes demo` removes 2 node\(s\): execute-3, execute-2 \(3 -> 1\) \[CAPACITY REMOVED\] \|/);
  });

  /** A port nothing listens on now. */
  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it("plan-local.sh, the workflow's local job: a fresh clusterform-local, the base program's `up`, the head program's plan", async () => {
    // Two checkouts of one project, as the workflow's base/ and head/: the pull request scales the pool down.
    const stack = `ci${Date.now()}`;
    const checkout = (count: number) => {
      const dir = mkdtempSync(path.join(t.workspace, "plan-local-"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: plan-local\nruntime: nodejs\nmain: index.js\n");
      writeFileSync(path.join(dir, `Pulumi.${stack}.yaml`), `config:\n  plan:count: "${count}"\n`);
      writeFileSync(
        path.join(dir, "index.js"),
        [
          'const pulumi = require("@pulumi/pulumi");',
          'const { cmassh } = require("clusterform");',
          'const count = Number(new pulumi.Config("plan").require("count"));',
          'const c = new cmassh.Cluster("c", { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } });',
          'new cmassh.NodePool("workers", { clusterName: c.name, instanceType: "standard", count });',
        ].join("\n"),
      );
      return dir;
    };
    const [base, head] = [checkout(3), checkout(1)];
    const out = path.join(dir, "local.md");
    const script = path.join(t.workspace, "node_modules", "clusterform", "examples", "ci", "plan-local.sh");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...engineEnv(),
      PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
      CLUSTERFORM_BIN: path.join(t.workspace, "node_modules", ".bin", "clusterform"),
      CLUSTERFORM_LOCAL_PORT: String(await freePort()),
      CLUSTERFORM_LOCAL_ARGS: "--time-scale 0.05",
    };
    // Neither checkout has endpoint config: the script's CLUSTERFORM_ENDPOINT must reach both.
    delete env.CLUSTERFORM_ENDPOINT;
    const code = await execFileAsync("bash", [script, base, head, stack, out], { env }).then(
      () => 0,
      (err: { code?: number }) => err.code ?? -1,
    );
    const markdown = readFileSync(out, "utf8");
    expect({ code, markdown }).toMatchObject({ code: 3, markdown: expect.stringContaining("**1** resource(s) change, **1** platform call(s), **1** disruptive.") });
    expect(markdown).toMatch(/\| ⚠️ \| `workers` cmassh:NodePool \| update \| 1\. `ScaleNodePool \S+\/\S+` scales down from 3 to 1 machine\(s\): 2 removed \[CAPACITY REMOVED\] \|/);
    // The plane the script started is gone with it.
    await expect(fetch(`http://127.0.0.1:${env.CLUSTERFORM_LOCAL_PORT}/_local/health`)).rejects.toThrow();
  });

  it("a scale-up is one CreateNodes, not flagged, and exits 2", async () => {
    await t.configure({ pools: { work: { count: 5 } } });
    const { code, markdown } = await runScript();
    expect(code).toBe(2);
    expect(markdown).toContain("|  | `work` cyclecloud:NodePool | update | 1. `CreateNodes demo` adds 2 node(s) to nodearray execute (3 -> 5) |");
    expect(markdown).not.toContain("⚠️");
  });
});
