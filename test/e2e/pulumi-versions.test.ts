import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { changingSteps } from "../harness/engine";
import { repoRoot } from "../harness/paths";

/** The oldest @pulumi/pulumi the package supports: the lower bound of its peer range. */
const OLDEST = /^>=(\d+\.\d+\.\d+) /.exec(JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")).peerDependencies["@pulumi/pulumi"])?.[1];

describe(`a program on the oldest supported @pulumi/pulumi (${OLDEST})`, () => {
  let t: CmasshStack;

  beforeAll(async () => {
    expect(OLDEST).toBeDefined();
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 0.1, pulumiVersion: OLDEST });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates, previews no change, refreshes and destroys", async () => {
    const installed = JSON.parse(readFileSync(path.join(t.workspace, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"));
    expect(installed.version).toBe(OLDEST);
    expect((await t.stack.up()).outputs.status).toBe("RUNNING");
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    await t.stack.refresh();
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    await t.stack.destroy();
    expect(await t.plane.cmasshClusters()).toEqual([]);
  });
});
