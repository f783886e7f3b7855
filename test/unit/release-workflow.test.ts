import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { KEY_ENV, PASSPHRASE_ENV } from "../../tools/release/signing";
import { repoRoot } from "../harness/paths";

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

const workflow = parse(readFileSync(path.join(repoRoot(), ".github", "workflows", "release.yml"), "utf8")) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);

describe("the release workflow (.github/workflows/release.yml)", () => {
  it("runs on version tags only, allowed to write the release", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*.*.*"] } });
    expect(workflow.permissions).toEqual({ contents: "write" });
  });

  it("builds with the same command a maintainer runs, the release set-up profile and the key from the repository's secrets", () => {
    const build = steps.find((s) => s.run?.includes("npm run release"));
    expect(build?.run?.split("\n").map((l) => l.trim()).filter(Boolean)).toEqual([". scripts/setup.sh", "npm run release"]);
    expect(build?.env).toEqual({
      CLUSTERFORM_SETUP_PROFILE: "release",
      [KEY_ENV]: `\${{ secrets.${KEY_ENV} }}`,
      [PASSPHRASE_ENV]: `\${{ secrets.${PASSPHRASE_ENV} }}`,
    });
  });

  it("checks the tag against package.json's version, then uploads dist/release's top-level files as the tag's assets", () => {
    const names = steps.map((s) => s.name ?? "");
    const check = steps.find((s) => s.run?.includes("require(\"./package.json\").version"));
    const upload = steps.find((s) => s.run?.includes("gh release create"));
    expect(check && upload).toBeTruthy();
    expect(names.indexOf(check!.name!)).toBeLessThan(names.indexOf(upload!.name!));
    expect(upload!.run).toContain("find dist/release -maxdepth 1 -type f");
    expect(upload!.run).toContain('gh release create "$GITHUB_REF_NAME" --verify-tag');
  });
});
