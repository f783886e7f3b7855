import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, engineEnv, openStack, pulumiBinDir } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { copyProgram, packageWorkspace } from "../harness/workspace";

// Installing the plugin without internet, from the packed package as users get it: the
// `clusterform-plugin-tarball` command writes a self-contained tarball, `pulumi plugin install
// --file` installs it, and a program with no `plugins:` path in Pulumi.yaml uses it.

describe("native plugin installed with pulumi plugin install --file", () => {
  let plane: LocalPlane;
  let workspace: string;

  beforeAll(async () => {
    workspace = packageWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.2 });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("writes a self-contained tarball that the CLI installs and runs from its plugin folder", async () => {
    const tarball = path.join(workspace, "clusterform-plugin.tgz");
    const bin = path.join(workspace, "node_modules", ".bin", "clusterform-plugin-tarball");
    execFileSync(bin, [tarball], { cwd: workspace, stdio: ["ignore", "ignore", "inherit"] });
    const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).split("\n");
    expect(listing).toContain("./pulumi-resource-clusterform");
    expect(listing).toContain("./node_modules/@pulumi/pulumi/package.json");

    const version = require(path.join(workspace, "node_modules", "clusterform", "package.json")).version as string;
    const env = { ...process.env, ...engineEnv() };
    execFileSync(path.join(pulumiBinDir(), "pulumi"), ["plugin", "install", "resource", "clusterform", version, "--file", tarball], { cwd: workspace, env, stdio: ["ignore", "ignore", "inherit"] });
    const installed = path.join(engineEnv().PULUMI_HOME, "plugins", `resource-clusterform-v${version}`, "pulumi-resource-clusterform");
    expect(existsSync(installed)).toBe(true);
    // GetSchema answers with the package's generated schema.json.
    const served = JSON.parse(execFileSync(path.join(pulumiBinDir(), "pulumi"), ["package", "get-schema", installed], { cwd: workspace, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }));
    const shipped = JSON.parse(readFileSync(path.join(workspace, "node_modules", "clusterform", "schema.json"), "utf8"));
    expect(Object.keys(served.resources).sort()).toEqual(Object.keys(shipped.resources).sort());
    expect(Object.keys(served.resources)).toContain("clusterform:cmassh:Cluster");

    // The program uses the package's native classes (`clusterform/native`).
    const stack = await openStack({ programDir: copyProgram(workspace, "native-installed"), config: { "clusterform:endpoint": { value: plane.url } } });
    const result = await stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.type}`)).toEqual(["create clusterform:cmassh:Cluster", "create clusterform:cmassh:NodePool"]);
    const [cluster] = await plane.cmasshClusters();
    expect(cluster.status).toBe("RUNNING");
    // The classes' outputs resolve from the plugin's answers; the kubeconfig stays a secret.
    expect(result.outputs).toMatchObject({ clusterName: cluster.name, poolCount: 1, poolClusterStatus: "RUNNING" });
    expect(String(result.outputs.kubeconfig)).toContain("apiVersion");
    expect((await stack.stack.outputs()).kubeconfig.secret).toBe(true);
    // An in-place change through the classes is the platform's scale.
    const since = await plane.lastSeq();
    await stack.setConfig("test:count", "3");
    const scaled = await stack.up();
    expect(changingSteps(scaled).map((s) => `${s.op} ${s.type}`)).toEqual(["update clusterform:cmassh:NodePool"]);
    expect((await plane.audit(since)).filter((e) => e.api === "cmassh" && e.code === "OK" && !/^Get/.test(e.operation)).map((e) => e.operation)).toEqual(["ScaleNodePool"]);
    expect(scaled.outputs.poolCount).toBe(3);
    expect(changingSteps(await stack.preview())).toEqual([]);
    await stack.destroy();
    expect(await plane.cmasshClusters()).toEqual([]);
  });
});
