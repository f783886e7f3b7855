import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fieldChange, referenceChangeCell, SDK_NAME } from "./policy-doc";
import { VCLUSTER_FIELDS } from "./schema";

/** The "on change" cell of each row of the reference page's inputs table, by input name. */
function referenceChanges(): Map<string, string> {
  const page = readFileSync(path.join(__dirname, "../../../../docs/reference/vcluster-vcluster.md"), "utf8");
  const inputs = page.slice(page.indexOf("## Inputs"), page.indexOf("## Outputs"));
  const rows = inputs.split("\n").filter((l) => l.startsWith("| `"));
  // | input | type | required | default | secret | on change | description |
  return new Map(rows.map((r) => r.split(" | ")).map((cells) => [cells[0].replace(/^\| `|`$/g, ""), cells[5]]));
}

describe("the vcluster field policy table", () => {
  it("is what the reference page (docs/reference/vcluster-vcluster.md) documents for every field", () => {
    const documented = referenceChanges();
    for (const field of Object.keys(VCLUSTER_FIELDS)) {
      expect(documented.get(SDK_NAME[field] ?? field), field).toBe(referenceChangeCell(field));
    }
  });

  it("documents the update mask path of every UpdateVCluster field", () => {
    const documented = referenceChanges();
    const masked = Object.entries(VCLUSTER_FIELDS).filter(([, rule]) => rule.maskPath);
    expect(masked).toHaveLength(8);
    for (const [field, rule] of masked) expect(documented.get(SDK_NAME[field] ?? field), field).toContain(`mask \`${rule.maskPath}\``);
  });

  it("lists every field with its change", () => {
    expect(Object.keys(VCLUSTER_FIELDS).map((f) => `| \`${SDK_NAME[f] ?? f}\` | ${fieldChange(f)}`)).toEqual([
      "| `name` | replace",
      "| `namespace` | replace",
      "| `distro` | replace",
      "| `network` | replace",
      "| `storage` | replace",
      "| `isolationMode` | replace",
      "| `owner` | replace",
      "| `project` | replace",
      "| `kubernetesVersion` | in place: UpdateVCluster, mask `spec.kubernetes_version`",
      "| `enableHa` | in place: UpdateVCluster, mask `spec.enable_ha`",
      "| `helmValues` | in place: UpdateVCluster, mask `spec.helm_values`",
      "| `sync` | in place: UpdateVCluster, mask `spec.sync`",
      "| `plugins` | in place: UpdateVCluster, mask `spec.plugins`",
      "| `ingress` | in place: UpdateVCluster, mask `spec.ingress`",
      "| `serviceAccount` | in place: UpdateVCluster, mask `spec.service_account`",
      "| `labels` | in place: UpdateVCluster, mask `labels`",
      "| `replicas` | in place: ScaleVCluster",
      "| `resources` | in place: ScaleVCluster",
      "| `suspended` | in place: SuspendVCluster/ResumeVCluster",
      "| `suspendOptions` | nothing",
      "| `restoreFrom` | nothing",
    ]);
  });
});
