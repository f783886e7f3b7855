// `bench:count` independent cma-ssh clusters through the native plugin, written as a user writes
// them: the `clusterform/native` classes of the packed package. The YAML program that
// bench/yaml-preview.run.ts writes declares the same clusters with the same inputs.
import * as pulumi from "@pulumi/pulumi";
import { cmassh } from "clusterform/native";

const count = new pulumi.Config("bench").getNumber("count") ?? 8;
for (let i = 0; i < count; i++) {
  new cmassh.Cluster(`c-${i}`, { kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } });
}

export const clusters = count;
