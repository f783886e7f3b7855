import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { codeBlocks, sectionFiles } from "../../tools/reference-docs/doc-examples";
import { renderReference } from "../../tools/reference-docs/pages";
import { ALL_KINDS_PLANE_FLAGS, compareStacksWithPlane, KINDS, planeInventory } from "../harness/all-kinds";
import { changingSteps, type EngineStack, openStack, pulumiBinDir, resourceSteps } from "../harness/engine";
import { type AuditEntry, type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { repoRoot, workDir } from "../harness/paths";
import { makeVenv } from "../harness/python";
import { SENLIN_USER } from "../harness/senlin-stack";
import { packageWorkspace } from "../harness/workspace";
import { CC_PASSWORD } from "./cyclecloud-support";
import { timeline } from "./peloton-support";

/**
 * The YAML, Go and Python examples (examples/yaml, examples/go, examples/python) through the real
 * engine on the native plugin, side by side on one local control plane: create, one in-place change
 * per platform that the plane's audit log proves, refresh, destroy. The Go and Python programs use
 * the SDKs that Pulumi's own generators write from the repository's schema.json
 * (scripts/generate-sdks.sh), offline: the Go module proxy is switched off, only the caches the
 * set-up fills are used, and the Python program's virtual environment is installed from the
 * set-up's wheelhouse (the Pulumi Python SDK from PyPI) without a package index.
 */

const cache = process.env.CLUSTERFORM_CACHE ?? path.join(homedir(), ".cache", "clusterform");
/** The Go caches the set-up fills; GOPROXY=off proves the program builds without the network. */
const GO_ENV = {
  GOMODCACHE: path.join(cache, "go", "mod"),
  GOCACHE: path.join(cache, "go", "build"),
  GOFLAGS: "-modcacherw -buildvcs=false",
  GOTOOLCHAIN: "local",
  GOPROXY: "off",
  CGO_ENABLED: "0",
};

const PROGRAMS = ["yaml", "go", "python"] as const;
type Program = (typeof PROGRAMS)[number];

/** The resources of every example, by logical name. */
const NAMES = ["cc", "cluster", "job", "pool", "profile", "respool", "senlin", "snap", "vc"];

/** A resource of a program's state: its id, inputs and outputs. */
interface Recorded {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/**
 * The in-place change of every platform (stack config of the examples), the resource it updates,
 * and the one platform call the audit log must show for it: API, operation and the target the
 * plane records (derived from the resource's state).
 */
const CHANGES: { key: string; value: string; resource: string; api: string; operation: string; target: (r: Recorded) => string }[] = [
  // The examples take the newest version of this line that getVersions lists (1.31.6 on the plane).
  { key: "clusterLine", value: "1.31.x", resource: "cluster", api: "cmassh", operation: "UpgradeCluster", target: (r) => r.id },
  { key: "poolCount", value: "2", resource: "pool", api: "cmassh", operation: "ScaleNodePool", target: (r) => r.id },
  // Nodes are added through the cluster's API: the call's target is the cluster.
  { key: "cyclecloudCount", value: "2", resource: "cc", api: "cyclecloud", operation: "CreateNodes", target: (r) => String(r.outputs.clusterName) },
  { key: "senlinCapacity", value: "2", resource: "senlin", api: "senlin", operation: "ResizeCluster", target: (r) => r.id },
  { key: "jobImage", value: "nginx:1.28", resource: "job", api: "peloton", operation: "ReplaceJob", target: (r) => r.id },
  { key: "vclusterVersion", value: "1.30.2", resource: "vc", api: "vcluster", operation: "UpdateVCluster", target: (r) => `${r.outputs.namespace}/${r.outputs.name}` },
];

/** Calls that only read (and Keystone's tokens): everything else in the audit log is a write. */
const READ = /^(Get|List|Describe|Lookup|Query|Watch|Show|Browse)/;
const writes = (entries: AuditEntry[]) => entries.filter((e) => e.api !== "keystone" && !READ.test(e.operation));

const ops = (r: Parameters<typeof changingSteps>[0]) => changingSteps(r).map((s) => `${s.op} ${s.name}`).sort();

/** The program's resources in the state, by logical name. */
async function state(stack: EngineStack): Promise<Record<string, Recorded>> {
  const resources = (await stack.exportState()).deployment.resources ?? [];
  return Object.fromEntries(
    resources
      .filter((r: { custom?: boolean; type: string }) => r.custom && r.type.startsWith("clusterform:"))
      .map((r: Recorded & { urn: string }) => [r.urn.split("::").at(-1), { id: r.id, inputs: r.inputs, outputs: r.outputs }]),
  );
}

/** One field of the program's resources in the state (`id`, `inputs`), by logical name. */
async function recorded(stack: EngineStack, field: "id" | "inputs"): Promise<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(await state(stack)).map(([name, r]) => [name, r[field]]));
}
const ids = (stack: EngineStack) => recorded(stack, "id");

/** Copies an example into a fresh folder of the workspace, its plugin path resolving to the workspace's install. */
function copyExample(workspace: string, example: Program): string {
  const dest = mkdtempSync(path.join(workspace, `example-${example}-`));
  cpSync(path.join(repoRoot(), "examples", example), dest, { recursive: true, filter: (src) => !["node_modules", "venv", "__pycache__"].includes(path.basename(src)) });
  // Pulumi.yaml names node_modules/clusterform/plugin, as after `npm install <tarball>` in the folder.
  symlinkSync(path.join(workspace, "node_modules"), path.join(dest, "node_modules"));
  return dest;
}

/** A YAML program written into a fresh folder of the workspace, its plugin path resolving as for the examples. */
function yamlProgram(workspace: string, label: string, text: string): string {
  const dest = mkdtempSync(path.join(workspace, `${label}-`));
  writeFileSync(path.join(dest, "Pulumi.yaml"), text);
  symlinkSync(path.join(workspace, "node_modules"), path.join(dest, "node_modules"));
  return dest;
}

/** The README's YAML start, `Pulumi.yaml` as a user copies it. */
const readmeYaml = () => sectionFiles(readFileSync(path.join(repoRoot(), "README.md"), "utf8"), "YAML")["Pulumi.yaml"];

/**
 * The README's YAML start with the YAML example of every reference page added to it (docs/reference,
 * rendered from schema.json as the committed pages are), each example's resource named after its
 * page: one program, so one preview checks them all.
 */
function readmeAndReferenceExamples(): { text: string; resources: string[] } {
  const schema = JSON.parse(readFileSync(path.join(repoRoot(), "schema.json"), "utf8"));
  const program = parse(readmeYaml());
  for (const page of renderReference(schema).filter((p) => p.text.includes("## Example"))) {
    const example = parse(codeBlocks(page.text, "yaml")[0]);
    program.config = { ...program.config, ...example.config };
    const [resource] = Object.values(example.resources);
    program.resources[page.file.replace(/\.md$/, "")] = resource;
  }
  return { text: stringify(program), resources: Object.keys(program.resources).sort() };
}

describe("YAML, Go and Python programs on the native plugin: the examples' lifecycle through the engine", () => {
  let plane: LocalPlane;
  let workspace: string;
  const stacks = {} as Record<Program, EngineStack>;
  /** The Python example's folder and the environment its programs run with (its venv on PATH). */
  let pythonDir: string;
  let pythonEnv: Record<string, string>;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    const started = Date.now();
    workspace = packageWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.2, flags: ALL_KINDS_PLANE_FLAGS });
    // The Go SDK, generated from the repository's schema.json into the build output; the example's
    // go.mod points at it (the only line of the example that changes here). A fixed folder (its go/
    // replaced whole by each run): the Go build cache keys packages by their folder, so the next run
    // finds the SDK's packages compiled when the schema has not changed.
    const sdks = path.join(workDir(), "languages-sdk");
    mkdirSync(sdks, { recursive: true });
    execFileSync("bash", [path.join(repoRoot(), "scripts", "generate-sdks.sh"), path.join(repoRoot(), "schema.json"), sdks, "go,python"], { stdio: ["ignore", "ignore", "inherit"] });
    const goDir = copyExample(workspace, "go");
    execFileSync("go", ["mod", "edit", `-replace=github.com/clusterform/clusterform/sdk/go=${path.join(sdks, "go")}`], { cwd: goDir, env: { ...process.env, ...GO_ENV } });
    const config = {
      "clusterform:endpoint": { value: plane.url },
      "clusterform:senlinUsername": { value: SENLIN_USER.username },
      "clusterform:senlinProjectName": { value: SENLIN_USER.project },
      "clusterform:senlinPassword": { value: SENLIN_USER.password, secret: true },
      "clusterform:cyclecloudUsername": { value: "admin" },
      "clusterform:cyclecloudPassword": { value: CC_PASSWORD, secret: true },
    };
    // The Python program's virtual environment: the Pulumi Python SDK and the generated SDK.
    pythonDir = copyExample(workspace, "python");
    const venv = makeVenv(pythonDir, [path.join(sdks, "python")]);
    pythonEnv = { PATH: `${path.join(venv, "bin")}${path.delimiter}${pulumiBinDir()}${path.delimiter}${process.env.PATH}` };
    stacks.yaml = await openStack({ programDir: copyExample(workspace, "yaml"), config });
    stacks.go = await openStack({ programDir: goDir, config, env: GO_ENV });
    // The virtual environment active (the Python host the set-up builds finds Python on PATH; a
    // released CLI's host also honours Pulumi.yaml's `virtualenv: venv`).
    stacks.python = await openStack({ programDir: pythonDir, config, env: pythonEnv });
    timings.setup = Date.now() - started;
  });
  afterAll(async () => {
    // Wall time per phase, for the report on what this file adds to the test command.
    console.log(`languages-lifecycle timings (ms): ${JSON.stringify(timings)}`);
    await plane?.stop();
  });

  /** Runs `fn` for each program in turn (one at a time: each program's audit entries are its own). */
  const each = async (phase: string, fn: (program: Program, stack: EngineStack) => Promise<void>) => {
    for (const program of PROGRAMS) {
      const started = Date.now();
      await fn(program, stacks[program]);
      timings[`${phase} ${program}`] = Date.now() - started;
    }
  };

  it("previews the README's YAML start and every reference page's YAML example through the plugin; a misspelt property fails before any call", async () => {
    const started = Date.now();
    const config = { "clusterform:endpoint": { value: plane.url } };
    const since = await plane.lastSeq();
    // The plugin's checks accept every value (a value they refuse fails the preview).
    const examples = readmeAndReferenceExamples();
    expect(examples.resources).toEqual(expect.arrayContaining(["cluster", "pool", "cmassh-node-pool", "vcluster-snapshot"]));
    expect(examples.resources).toHaveLength(2 + readdirSync(path.join(repoRoot(), "docs", "reference")).filter((f) => f !== "README.md" && f !== "provider.md").length);
    const all = await openStack({ programDir: yamlProgram(workspace, "doc-examples", examples.text), config });
    expect(ops(await all.preview())).toEqual(examples.resources.map((r) => `create ${r}`));
    // docs/languages.md: the YAML language host checks properties against the plugin's schema.
    const misspelt = readmeYaml().replace("      count: 3\n", "      cuont: 3\n");
    expect(misspelt).not.toBe(readmeYaml());
    const wrong = await openStack({ programDir: yamlProgram(workspace, "misspelt-yaml", misspelt), config });
    await expect(wrong.preview()).rejects.toThrow(/clusterform:cmassh:NodePool is not assignable from \{[^}]*\bcuont: number\}/);
    expect(await plane.audit(since)).toEqual([]);
    timings["doc examples"] = Date.now() - started;
  });

  it("previews the README's Python start on the plugin: its two resources, no call to the platform", async () => {
    const files = sectionFiles(readFileSync(path.join(repoRoot(), "README.md"), "utf8"), "Python");
    expect(Object.keys(files).sort()).toEqual(["Pulumi.yaml", "__main__.py", "requirements.txt"]);
    const dir = mkdtempSync(path.join(workspace, "readme-python-"));
    // As written, but for the plugin: from the installed package, as the examples name it.
    writeFileSync(path.join(dir, "Pulumi.yaml"), `${files["Pulumi.yaml"]}plugins:\n  providers:\n    - name: clusterform\n      path: node_modules/clusterform/plugin\n`);
    writeFileSync(path.join(dir, "__main__.py"), files["__main__.py"]);
    symlinkSync(path.join(workspace, "node_modules"), path.join(dir, "node_modules"));
    symlinkSync(path.join(pythonDir, "venv"), path.join(dir, "venv"));
    const since = await plane.lastSeq();
    const stack = await openStack({ programDir: dir, config: { "clusterform:endpoint": { value: plane.url } }, env: pythonEnv });
    expect(ops(await stack.preview())).toEqual(["create general", "create prod"]);
    expect(await plane.audit(since)).toEqual([]);
  });

  it("creates every resource of every program; the plane holds exactly what the states name; secrets stay encrypted; a preview plans nothing", async () => {
    await each("create", async (program, stack) => {
      const result = await stack.up();
      expect({ program, ops: ops(result) }).toEqual({ program, ops: NAMES.map((n) => `create ${n}`) });
      expect({ program, ops: ops(await stack.preview()) }).toEqual({ program, ops: [] });
      // The Senlin cluster is built from the program's own profile, named by that resource's id (an output).
      const created = await ids(stack);
      const inputs = (await recorded(stack, "inputs")) as Record<string, { profile?: string; kubernetesVersion?: string }>;
      expect({ program, profile: inputs.senlin.profile }).toEqual({ program, profile: created.profile });
      // The cma-ssh cluster runs the newest 1.30 patch the plane offers, as getVersions found it.
      expect({ program, version: inputs.cluster.kubernetesVersion }).toEqual({ program, version: "1.30.10" });
      // The provider passwords (secret stack config) and the kubeconfigs (secret outputs) stay encrypted on disk.
      const stored = await stack.storedState();
      for (const secret of [SENLIN_USER.password, CC_PASSWORD, "client-key-data", "certificate-authority-data"]) {
        expect({ program, secret, stored: stored.includes(secret) }).toEqual({ program, secret, stored: false });
      }
    });
    const comparison = await compareStacksWithPlane(plane, PROGRAMS.map((p) => stacks[p]));
    for (const kind of KINDS) {
      const none = PROGRAMS.map(() => []);
      expect({ kind, ...comparison[kind], plane: undefined, states: undefined }).toEqual({ kind, orphans: [], missing: none, duplicates: none, shared: [], plane: undefined, states: undefined });
      // Each program made its own object of every kind it declares (the examples declare no Senlin policy).
      const declared = kind !== "senlin:Policy";
      expect({ kind, counts: comparison[kind].states.map((s) => s.length > 0) }).toEqual({ kind, counts: PROGRAMS.map(() => declared) });
    }
    const profiles = await plane.admin<{ profiles: { id: string }[] }>("/_local/senlin/profiles");
    expect(profiles.profiles).toHaveLength(PROGRAMS.length);
  });

  it("changes one field per platform in place, each by the platform's own operation, replacing nothing", async () => {
    await each("update", async (program, stack) => {
      const before = await ids(stack);
      const since = await plane.lastSeq();
      const project = (await stack.stack.workspace.projectSettings()).name;
      await stack.configure(Object.fromEntries(CHANGES.map((c) => [`${project}:${c.key}`, { value: c.value }])));
      const started = Math.max(0, ...(await timeline(plane, before.job as string)).map((e) => e.createdMs));
      const result = await stack.up();
      expect({ program, ops: ops(result) }).toEqual({ program, ops: CHANGES.map((c) => `update ${c.resource}`).sort() });
      // Same objects (no replacement), and the platforms saw exactly the six operations, nothing created or deleted.
      expect({ program, ids: await ids(stack) }).toEqual({ program, ids: before });
      // Every write counted, failed ones too: one call per change, on the resource it changes.
      const after = await state(stack);
      expect({ program, version: after.cluster.inputs.kubernetesVersion }).toEqual({ program, version: "1.31.6" });
      const done = writes(await plane.audit(since)).map((e) => `${e.api} ${e.operation} ${e.target} ${e.code}`);
      expect({ program, done: done.sort() }).toEqual({
        program,
        done: CHANGES.map((c) => `${c.api} ${c.operation} ${c.target(after[c.resource])} OK`).sort(),
      });
      // The job's rollout ran in batches of `updatePolicy.batchSize` (1): each instance's new pod
      // started at its own moment, instance 0 before instance 1.
      const rolled = (await timeline(plane, after.job.id)).filter((e) => e.createdMs > started);
      const batches = [...new Set(rolled.map((e) => e.createdMs))].sort((a, b) => a - b);
      expect({ program, batches: batches.map((at) => rolled.filter((e) => e.createdMs === at).map((e) => e.instanceId)) }).toEqual({ program, batches: [[0], [1]] });
      expect({ program, ops: ops(await stack.preview()) }).toEqual({ program, ops: [] });
    });
  });

  it("refreshes without finding a difference, then previews nothing to do", async () => {
    await each("refresh", async (program, stack) => {
      const before = await recorded(stack, "inputs");
      const since = await plane.lastSeq();
      const refresh = await stack.refresh();
      expect({ program, differing: resourceSteps(refresh).filter((s) => s.diffs.length > 0).map((s) => s.name) }).toEqual({ program, differing: [] });
      // What the platforms report matches what the program declared: every input read back unchanged
      // (outputs such as a resource pool's live allocation may move; they are not drift).
      expect({ program, inputs: await recorded(stack, "inputs") }).toEqual({ program, inputs: before });
      expect({ program, writes: writes(await plane.audit(since)) }).toEqual({ program, writes: [] });
      expect({ program, ops: ops(await stack.preview()) }).toEqual({ program, ops: [] });
    });
  });

  it("refuses a config value of the wrong type, naming the key and the type, before anything is sent", async () => {
    await each("bad config", async (program, stack) => {
      const project = (await stack.stack.workspace.projectSettings()).name;
      const since = await plane.lastSeq();
      await stack.setConfig(`${project}:poolCount`, "two");
      await expect(stack.preview()).rejects.toThrow(/configuration key 'poolCount' must be of type 'integer'/);
      expect({ program, calls: await plane.audit(since) }).toEqual({ program, calls: [] });
      await stack.setConfig(`${project}:poolCount`, "2");
    });
  });

  it("destroys every program and leaves the plane empty", async () => {
    await each("destroy", async (program, stack) => {
      const result = await stack.destroy();
      expect({ program, ops: ops(result) }).toEqual({ program, ops: NAMES.map((n) => `delete ${n}`) });
    });
    const inventory = await planeInventory(plane);
    expect(inventory).toEqual(Object.fromEntries(KINDS.map((k) => [k, []])));
    expect((await plane.admin<{ profiles: unknown[] }>("/_local/senlin/profiles")).profiles).toEqual([]);
  });
});
