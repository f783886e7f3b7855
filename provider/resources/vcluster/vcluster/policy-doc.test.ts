import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { policyTableMarkdown } from "./policy-doc";

describe("the vcluster field policy table", () => {
  it("appears in the vcluster guide (docs/platforms/vcluster.md) exactly as the code defines it", () => {
    const docs = readFileSync(path.join(__dirname, "../../../../docs/platforms/vcluster.md"), "utf8");
    expect(docs).toContain(policyTableMarkdown());
  });

  it("lists every field with its change", () => {
    expect(policyTableMarkdown().split("\n").slice(2).map((row) => row.split(" | ").slice(0, 2).join(" | "))).toEqual([
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
      "| `restoreFrom` | nothing",
    ]);
  });
});
