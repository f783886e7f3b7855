import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf, brokenLinks, headingSlug, markdownFilesUnder } from "../harness/markdown-links";
import { repoRoot } from "../harness/paths";

/** A scratch folder holding `files` (path to text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "docs-links-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("the relative links of README.md, docs/, test/README.md and bench/README.md", () => {
  it("all lead to an existing file and, with an anchor, to one of its headings", () => {
    const root = repoRoot();
    const files = ["README.md", ...markdownFilesUnder(root, "docs"), "test/README.md", "bench/README.md"];
    expect(files.length).toBeGreaterThan(10);
    expect(brokenLinks(root, files)).toEqual([]);
  });
});

describe("the link check", () => {
  it("gives headings GitHub's anchors", () => {
    expect(headingSlug("Kubernetes behind the local clusters (`--kubernetes`)")).toBe("kubernetes-behind-the-local-clusters---kubernetes");
    expect(headingSlug("`cmassh.Cluster`")).toBe("cmasshcluster");
    expect(headingSlug("Measured (2 cores, 24 GB, 2026-11-22)")).toBe("measured-2-cores-24-gb-2026-11-22");
    expect([...anchorsOf("# A\n## Limits\n```sh\n# not a heading\n```\n## Limits\n")]).toEqual(["a", "limits", "limits-1"]);
  });

  it("reports a missing file, a missing anchor and a missing folder, with file and line", () => {
    const root = tree({
      "README.md": "# Top\n\nSee [guide](docs/guide.md#usage) and [gone](docs/gone.md).\n[here](#top) [nowhere](#nowhere)\n[dir](examples/none/)\n",
      "docs/guide.md": "# Guide\n\n## Use\n",
    });
    expect(brokenLinks(root, ["README.md"])).toEqual([
      { file: "README.md", line: 3, target: "docs/guide.md#usage", reason: "docs/guide.md has no heading with the anchor #usage" },
      { file: "README.md", line: 3, target: "docs/gone.md", reason: "docs/gone.md does not exist" },
      { file: "README.md", line: 4, target: "#nowhere", reason: "README.md has no heading with the anchor #nowhere" },
      { file: "README.md", line: 5, target: "examples/none/", reason: "examples/none does not exist" },
    ]);
  });

  it("leaves external links, code and listed pages alone, but checks a listed page that exists", () => {
    const root = tree({
      "README.md": "# Top\n\n[web](https://example.com/x.md) `[code](missing.md)`\n```md\n[fenced](missing.md)\n```\n[later](docs/later.md)\n[def]: docs/also-missing.md\n",
      "docs/x.md": "# X\n\n[up](../README.md#top) [bad](../README.md#bottom)\n",
    });
    expect(brokenLinks(root, ["README.md"], ["docs/later.md"])).toEqual([
      { file: "README.md", line: 8, target: "docs/also-missing.md", reason: "docs/also-missing.md does not exist" },
    ]);
    expect(brokenLinks(root, ["docs/x.md"], ["README.md"]).map((b) => b.target)).toEqual(["../README.md#bottom"]);
  });
});
