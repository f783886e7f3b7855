"use strict";
// The default provider, configured by stack config `clusterform:endpoint`, from the installed plugin.
const pulumi = require("@pulumi/pulumi");

class Native extends pulumi.CustomResource {}

new Native("clusterform:cmassh:Cluster", "installed", { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } });
