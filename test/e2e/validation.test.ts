import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineNames } from "../../provider/engines/testing";
import { terraformTypeName } from "../../provider/engines/terraform/kind-modules";
import { startAllKindsPlane } from "../harness/all-kinds";
import { type EngineStack, openStack } from "../harness/engine";
import type { LocalPlane } from "../harness/local-plane";
import { SENLIN_USER } from "../harness/senlin-stack";
import { openTofuDir, planArgs, type TofuResult } from "../harness/tofu";
import { copyProgram, packageWorkspace } from "../harness/workspace";
import { CC_PASSWORD } from "./cyclecloud-support";

// What each engine shows its user for a bad input, before any platform call: one bad input of each
// platform through `pulumi preview` with the dynamic classes, `pulumi preview` with the native
// plugin's classes, and `tofu plan` (the five at once: tofu reports every resource's failures in
// one plan; Pulumi stops at the first resource whose check fails, so one preview per input). Every
// bad input, through each engine's check surface in-process, is provider/engines/checks/.

/** One platform's bad input, as each engine's users write it, and the failure each must show. */
interface Row {
  platform: string;
  type: string;
  /** The resource's name: Pulumi's, and the HCL block's label. */
  name: string;
  /** The arguments of the dynamic and the native class alike. */
  args: Record<string, unknown>;
  /** The same resource's HCL block body. */
  hcl: string;
  /** The field the failure names, in each engine's names (a nested one by its whole path). */
  field: EngineNames;
  /** The HCL line tofu shows: the attribute the failure points at. */
  line: string;
  /** The failure after the field's name: what is allowed and the value received. */
  reason: string;
}

const ROWS: Row[] = [
  {
    platform: "cma-ssh",
    type: "cmassh:Cluster",
    name: "main",
    args: { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 0 } },
    hcl: 'name = "main"\n  kubernetes_version = "1.30.10"\n  control_plane = { instance_type = "standard", node_count = 0 }',
    field: { dynamic: "controlPlane.count", pulumi: "controlPlane.count", terraform: "control_plane.node_count" },
    line: 'control_plane = { instance_type = "standard", node_count = 0 }',
    reason: "must be an integer between 1 and 9, got 0",
  },
  {
    platform: "CycleCloud",
    type: "cyclecloud:NodePool",
    name: "workers",
    args: { clusterName: "demo", nodearray: "execute", count: -1 },
    hcl: 'cluster_name = "demo"\n  nodearray = "execute"\n  node_count = -1',
    field: { dynamic: "count", pulumi: "count", terraform: "node_count" },
    line: "node_count = -1",
    reason: "must be an integer between 0 and 1000, got -1",
  },
  {
    platform: "Senlin",
    type: "senlin:Cluster",
    name: "web",
    args: { profile: "web-profile", desiredCapacity: 1.5 },
    hcl: 'name = "web"\n  profile = "web-profile"\n  desired_capacity = 1.5',
    field: { dynamic: "desiredCapacity", pulumi: "desiredCapacity", terraform: "desired_capacity" },
    line: "desired_capacity = 1.5",
    reason: "must be an integer between 0 and 1000, got 1.5",
  },
  {
    platform: "Peloton",
    type: "peloton:ResourcePool",
    name: "batch",
    args: { resources: [{ kind: "cpu", reservation: 1, limit: 10 }], slackLimit: { maxPercent: 120 } },
    hcl: 'name = "batch"\n  resources = [{ kind = "cpu", reservation = 1, limit = 10 }]\n  slack_limit = { max_percent = 120 }',
    field: { dynamic: "slackLimit.maxPercent", pulumi: "slackLimit.maxPercent", terraform: "slack_limit.max_percent" },
    line: "slack_limit = { max_percent = 120 }",
    reason: "must be a number from 0 to 100, got 120",
  },
  {
    platform: "vcluster",
    type: "vcluster:VCluster",
    name: "dev",
    // `owner` in both classes: the dynamic class sends it as the kind's `vclusterOwner`.
    args: { namespace: "team-a", owner: "Alice Smith" },
    hcl: 'name = "dev"\n  namespace = "team-a"\n  vcluster_owner = "Alice Smith"',
    field: { dynamic: "vclusterOwner", pulumi: "owner", terraform: "vcluster_owner" },
    line: 'vcluster_owner = "Alice Smith"',
    reason:
      "(the `owner` argument) must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, got \"Alice Smith\"",
  },
];

const isNested = (field: string) => /[.[]/.test(field);
/** What `pulumi preview` printed, from the automation API's error message (which repeats it after ` err?: `). */
const printed = (message: string) => message.split("\n err?: ")[0];
const oneLine = (text: string) => text.replace(/\s+/g, " ");

type Engine = "dynamic" | "native";
const ENGINES: Engine[] = ["dynamic", "native"];

let plane: LocalPlane;
let workspace: string;
const stacks = {} as Record<Engine, EngineStack>;

beforeAll(async () => {
  workspace = packageWorkspace();
  plane = await startAllKindsPlane(workspace, 0.1);
  const programDir = copyProgram(workspace, "validation");
  const [dynamic, native] = await Promise.all(
    ENGINES.map((engine) =>
      openStack({ programDir, config: { "clusterform:endpoint": { value: plane.url }, "test:engine": { value: engine } } }),
    ),
  );
  Object.assign(stacks, { dynamic, native });
});
afterAll(async () => {
  await plane?.stop();
});

describe("pulumi preview shows each platform's bad input, naming the field, the value and what is allowed, before any platform call", () => {
  const cases = ROWS.flatMap((row) => ENGINES.map((engine) => ({ ...row, engine })));
  it.for(cases)("$platform $type ($engine classes)", async (row) => {
    const stack = stacks[row.engine];
    await stack.configure({ "test:type": { value: row.type }, "test:name": { value: row.name }, "test:args": { value: JSON.stringify(row.args) } });
    const since = await plane.lastSeq();
    const failure = await stack.preview().then(
      () => "the preview succeeded",
      (err: Error) => printed(err.message),
    );
    const field = row.engine === "dynamic" ? row.field.dynamic : row.field.pulumi;
    const lines = failure.split("\n").filter((line) => line.startsWith("error: ") && line.includes(`has a problem: ${field} ${row.reason}`));
    expect(lines, failure).toHaveLength(1);
    // Pulumi shows a top-level field's value; a nested field's failure names no property (no `value {<nil>}`).
    expect(lines[0]).toContain(isNested(field) ? `resource '${row.name}' has a problem:` : `property ${field} value {`);
    expect(failure).not.toContain("<nil>");
    expect(await plane.audit(since)).toEqual([]);
  });
});

describe("tofu plan shows every platform's bad input at once, on its configuration line, before any platform call", () => {
  let plan: TofuResult;
  let calls: unknown[];
  beforeAll(async () => {
    // The configuration's source, rewritten by each run; openTofuDir copies it to its own directory.
    const source = path.join(workspace, "hcl");
    mkdirSync(source, { recursive: true });
    const blocks = ROWS.map((row) => `resource "${terraformTypeName(row.type)}" "${row.name}" {\n  ${row.hcl}\n}\n`);
    writeFileSync(
      path.join(source, "main.tf"),
      `terraform {\n  required_providers {\n    clusterform = { source = "registry.opentofu.org/clusterform/clusterform" }\n  }\n}\n\nprovider "clusterform" {}\n\n${blocks.join("\n")}`,
    );
    const dir = openTofuDir("validation", { example: "", source, providerDir: path.join(workspace, "node_modules", "clusterform", "bin"), endpoint: plane.url });
    Object.assign(dir.env, {
      OS_USERNAME: SENLIN_USER.username,
      OS_PASSWORD: SENLIN_USER.password,
      OS_PROJECT_NAME: SENLIN_USER.project,
      CLUSTERFORM_CYCLECLOUD_USERNAME: "admin",
      CLUSTERFORM_CYCLECLOUD_PASSWORD: CC_PASSWORD,
    });
    const since = await plane.lastSeq();
    plan = await dir.run(planArgs());
    calls = await plane.audit(since);
  });

  it.for(ROWS)("$platform $type", (row) => {
    const top = row.field.terraform.split(/[.[]/)[0];
    const tfType = terraformTypeName(row.type);
    expect(plan.code).toBe(1);
    // tofu shows the diagnostic's summary, the configuration line of the attribute it points at, and the detail.
    const shown = new RegExp(`Error: Invalid ${top} with ${tfType}\\.${row.name}, on main\\.tf line \\d+, in resource "${tfType}" "${row.name}": \\d+: ${literal(row.line)} ${literal(`${row.field.terraform} ${row.reason}`)}`);
    expect(oneLine(plan.stderr)).toMatch(shown);
    expect(calls).toEqual([]);
  });
});

/** `text` on one line, as a regular expression matching it literally. */
function literal(text: string): string {
  return oneLine(text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
