"use strict";
const pulumi = require("@pulumi/pulumi");
const { Echo } = require("cf-echo-fixture");

const config = new pulumi.Config();
const first = new Echo("first", { key: "first", message: config.get("message") ?? "hello" });
const second = new Echo("second", { key: "second", message: "world" });

exports.firstLength = first.length;
exports.secondWrittenBy = second.writtenBy;
