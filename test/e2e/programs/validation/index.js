"use strict";
// One resource from config, as users declare it: `test:engine` picks the dynamic classes
// (`clusterform`) or the native plugin's (`clusterform/native`, the default provider configured by
// stack config `clusterform:endpoint`); `test:type` is the kind (`cmassh:Cluster`), `test:name` the
// resource's name and `test:args` (JSON) its arguments, the same for both.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");

const config = new Config("test");
const classes = config.require("engine") === "native" ? require("clusterform/native") : require("clusterform");
const [platform, kind] = config.require("type").split(":");
new classes[platform][kind](config.require("name"), JSON.parse(config.require("args")));
