// Independent cma-ssh clusters under the native token, as a TypeScript program: the same resources
// as the YAML program bench/yaml-preview.run.ts writes, for its per-resource comparison.
import * as pulumi from "@pulumi/pulumi";

// CustomResource is abstract in the typings only: a plain subclass registers any type token.
class Native extends pulumi.CustomResource {}

const count = new pulumi.Config("bench").getNumber("count") ?? 8;
for (let i = 0; i < count; i++) {
  new Native("clusterform:cmassh:Cluster", `c-${i}`, { kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } });
}

export const clusters = count;
