// Writes the upgrade-safety fixture of this release for one engine:
//   dynamic (default): test/fixtures/upgrade/<version>/, the Pulumi dynamic provider's stack
//   native:            test/fixtures/upgrade-native/<version>/, the native plugin's stack (Pulumi YAML)
//   tofu:              test/fixtures/upgrade-tofu/<version>/, OpenTofu's state
//
// It installs the built package as users do (a packed tarball), starts a fresh local control plane,
// applies the engine's fixture program (<fixture root>/program) and refreshes, then saves what a later
// release needs to take the stack over: the program, the stack config (Pulumi: with its encryption
// salt and the passwords as secrets) or nothing (tofu: credentials come from the environment), the
// state (`pulumi stack export`, or terraform.tfstate as tofu wrote it) and the plane's database after
// a clean stop. test/e2e/upgrade-fixtures.test.ts, upgrade-native-fixtures.test.ts and
// upgrade-tofu-fixtures.test.ts read every such directory.
//
// Usage (after `npm run build`; scripts/write-upgrade-fixture.sh does both):
//   node scripts/write-upgrade-fixture.mjs [--force] [--engine dynamic|native|tofu] [version]
// version defaults to package.json's; --force overwrites an existing fixture directory.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Each engine's fixture root (its program is `program/` in it) and how a stack of it is written. */
const ENGINES = {
  dynamic: { root: "upgrade", write: (ctx) => writePulumi(ctx, "pulumi-nodejs:dynamic/") },
  native: { root: "upgrade-native", write: (ctx) => writePulumi(ctx, "clusterform:") },
  tofu: { root: "upgrade-tofu", write: (ctx) => writeTofu(ctx) },
};
/** The tests' passphrase (test/harness/engine.ts): the fixture's secrets are encrypted with it. */
const PASSPHRASE = "clusterform-tests";
/** Test credentials, as in test/harness/senlin-stack.ts and test/e2e/cyclecloud-support.ts. */
const SENLIN = { username: "ops", password: "Zebra-Horse-7b1f-secret", project: "web" };
const CYCLECLOUD = { username: "admin", password: "Cc-s3cret-9f2e71" };
const PLANE_FLAGS = [
  ...["--keystone-user", SENLIN.username, "--keystone-password", SENLIN.password, "--keystone-project", SENLIN.project],
  ...["--cyclecloud-password", CYCLECLOUD.password],
];
const TIME_SCALE = 0.1;

function fail(message) {
  process.stderr.write(`write-upgrade-fixture: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const force = argv.includes("--force");
  let engine = "dynamic";
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--force") continue;
    if (argv[i] === "--engine") engine = argv[++i];
    else rest.push(argv[i]);
  }
  const usage = "usage: write-upgrade-fixture.mjs [--force] [--engine dynamic|native|tofu] [version]";
  if (!Object.hasOwn(ENGINES, engine ?? "")) fail(`${usage}: unknown engine "${engine}"`);
  if (rest.length > 1 || rest.some((a) => a.startsWith("-"))) fail(`${usage}, got ${argv.join(" ")}`);
  const version = rest[0] ?? JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) fail(`version must be MAJOR.MINOR.PATCH[-pre], got "${version}"`);
  return { version, force, engine };
}

function run(cmd, args, opts = {}) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...opts });
  } catch (err) {
    fail(`${cmd} ${args.join(" ")} failed (exit ${err.status}):\n${err.stdout ?? ""}${err.stderr ?? ""}`);
  }
}

/** Installs @pulumi/pulumi and the packed package into `dir` the way a user's project gets them. */
function installWorkspace(dir) {
  mkdirSync(dir, { recursive: true });
  const out = run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir, ROOT]);
  const tarball = path.join(dir, out.trim().split("\n").pop());
  const sdk = JSON.parse(readFileSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version;
  const pkg = { name: "upgrade-fixture", private: true, dependencies: { "@pulumi/pulumi": sdk, clusterform: `file:${tarball}` } };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  return sdk;
}

/** Starts clusterform-local from the installed package; resolves once it listens. */
function startPlane(workspace, dataDir) {
  const cli = path.join(workspace, "node_modules", "clusterform", "dist", "emulator", "cli.js");
  const args = [cli, "--port", "0", "--data", dataDir, "--time-scale", String(TIME_SCALE), ...PLANE_FLAGS];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.stderr.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) => reject(new Error(`clusterform-local exited with ${code}: ${out}`)));
  });
}

async function stopPlane(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** A private Pulumi home and file backend, with the tests' passphrase. */
function pulumiEnv(work) {
  const bin = process.env.CLUSTERFORM_PULUMI_BIN;
  if (!bin) fail("CLUSTERFORM_PULUMI_BIN is not set: run scripts/write-upgrade-fixture.sh, which sets up the Pulumi CLI");
  mkdirSync(path.join(work, "home"), { recursive: true });
  mkdirSync(path.join(work, "backend"), { recursive: true });
  return {
    bin: path.join(bin, "pulumi"),
    env: {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      PULUMI_HOME: path.join(work, "home"),
      PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  };
}

/**
 * `pulumi up` of the program (a Node.js program of the dynamic provider, or Pulumi YAML of the native
 * plugin) and `pulumi refresh`, then the program, the stack config and the exported state into `out`.
 * @returns the README's rows and what fixture.json records of the engine
 */
function writePulumi({ work, programDir, plane, stack, project, out }, typePrefix) {
  const { bin, env } = pulumiEnv(work);
  const pulumi = (args) => run(bin, [...args, "--non-interactive", "--color", "never"], { cwd: programDir, env });
  const pulumiCli = pulumi(["version"]).trim().replace(/^v/, "");
  pulumi(["stack", "init", stack, "--secrets-provider", "passphrase"]);
  const plain = { endpoint: plane.url, senlinUsername: SENLIN.username, senlinProjectName: SENLIN.project, cyclecloudUsername: CYCLECLOUD.username };
  for (const [key, value] of Object.entries(plain)) pulumi(["config", "set", `clusterform:${key}`, value]);
  pulumi(["config", "set", "--secret", "clusterform:senlinPassword", SENLIN.password]);
  pulumi(["config", "set", "--secret", "clusterform:cyclecloudPassword", CYCLECLOUD.password]);
  process.stderr.write(`write-upgrade-fixture: pulumi up of ${project}/${stack} against ${plane.url}\n`);
  pulumi(["up", "--yes", "--skip-preview"]);
  // A refresh records what the platforms report once everything has settled (a pool's usage
  // counts the job started after it), so the test's refresh must find nothing to change.
  pulumi(["refresh", "--yes", "--skip-preview"]);
  pulumi(["stack", "export", "--file", path.join(out, "state.json")]);
  const programFiles = readdirSync(programDir).filter((f) => f !== "Pulumi.yaml" && !f.startsWith("Pulumi."));
  for (const file of ["Pulumi.yaml", ...programFiles, `Pulumi.${stack}.yaml`]) cpSync(path.join(programDir, file), path.join(out, file));
  const resources = JSON.parse(readFileSync(path.join(out, "state.json"), "utf8")).deployment.resources ?? [];
  const pulumiSdk = JSON.parse(readFileSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version;
  return {
    meta: { stack, project, pulumiCli, pulumiSdk, recordedEndpoint: plane.url, resources: resources.filter((r) => r.type.startsWith(typePrefix) && !r.type.startsWith("pulumi:")).length },
    written: `Pulumi CLI ${pulumiCli}, @pulumi/pulumi ${pulumiSdk}`,
    what: `the stack \`${stack}\` of the project \`${project}\` right after \`pulumi up\` of the program and \`pulumi refresh\`, against a fresh local control plane (flags in \`fixture.json\`), with a file backend and the tests' passphrase \`${PASSPHRASE}\``,
    rows: [
      ["`Pulumi.yaml`" + (programFiles.length ? `, ${programFiles.map((f) => `\`${f}\``).join(", ")}` : ""), "the program, as it was"],
      [`\`Pulumi.${stack}.yaml\``, "the stack config: its `encryptionsalt`, the endpoint it was written against and the passwords as secrets"],
      ["`state.json`", "`pulumi stack export` after the `up` and a `refresh` (secrets encrypted)"],
    ],
  };
}

/**
 * `tofu apply` of main.tf and `tofu apply -refresh-only`, with the provider of the installed package
 * (a `dev_overrides` CLI configuration, as test/harness/tofu.ts sets up) and the endpoint and every
 * credential from the environment, then main.tf and terraform.tfstate into `out`.
 */
function writeTofu({ work, workspace, programDir, plane, out }) {
  const tofu = process.env.CLUSTERFORM_TOFU;
  if (!tofu || !existsSync(tofu)) fail("CLUSTERFORM_TOFU is not set: run scripts/write-upgrade-fixture.sh, which sets up OpenTofu");
  const cliConfig = path.join(work, ".tofurc");
  const providerDir = path.join(workspace, "node_modules", "clusterform", "bin");
  writeFileSync(cliConfig, `provider_installation {\n  dev_overrides {\n    "registry.opentofu.org/clusterform/clusterform" = "${providerDir}"\n  }\n  direct {}\n}\n`);
  const env = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    CLUSTERFORM_ENDPOINT: plane.url,
    OS_USERNAME: SENLIN.username,
    OS_PASSWORD: SENLIN.password,
    OS_PROJECT_NAME: SENLIN.project,
    CLUSTERFORM_CYCLECLOUD_USERNAME: CYCLECLOUD.username,
    CLUSTERFORM_CYCLECLOUD_PASSWORD: CYCLECLOUD.password,
  };
  const tofuRun = (args) => run(tofu, args, { cwd: programDir, env });
  const tofuVersion = JSON.parse(tofuRun(["version", "-json"])).terraform_version;
  process.stderr.write(`write-upgrade-fixture: tofu apply against ${plane.url}\n`);
  tofuRun(["apply", "-auto-approve", "-input=false", "-no-color"]);
  // As the Pulumi fixtures' refresh: the state records what the platforms report once settled.
  tofuRun(["apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"]);
  for (const file of ["main.tf", "terraform.tfstate"]) cpSync(path.join(programDir, file), path.join(out, file));
  const state = JSON.parse(readFileSync(path.join(out, "terraform.tfstate"), "utf8"));
  const managed = (state.resources ?? []).filter((r) => r.mode === "managed");
  return {
    meta: { tofuVersion, recordedEndpoint: plane.url, resources: managed.reduce((n, r) => n + r.instances.length, 0) },
    written: `OpenTofu ${tofuVersion}`,
    what:
      "the state of `main.tf` right after `tofu apply` and `tofu apply -refresh-only`, against a fresh local control plane " +
      "(flags in `fixture.json`), the endpoint and every credential given in the environment (`CLUSTERFORM_ENDPOINT`, `OS_*`, " +
      "`CLUSTERFORM_CYCLECLOUD_*`)",
    rows: [
      ["`main.tf`", "the configuration, as it was (no endpoint, no credential)"],
      [
        "`terraform.tfstate`",
        "the state as tofu wrote it, each resource's `schema_version` as the provider gave it. OpenTofu keeps state in plain text: the `kubeconfig` of the cma-ssh cluster and of the vcluster and the receiver's `alarm_url` (sensitive attributes) are in it in plain text, as in every user's unencrypted state; the plane's passwords are not",
      ],
    ],
  };
}

function writeReadme(out, engine, meta, written) {
  const test = { dynamic: "upgrade-fixtures.test.ts", native: "upgrade-native-fixtures.test.ts", tofu: "upgrade-tofu-fixtures.test.ts" }[engine];
  const flag = engine === "dynamic" ? "" : ` --engine ${engine}`;
  const rows = [
    ...written.rows,
    ["`plane/state.db`", "the local control plane's database after a clean stop: the objects the state names"],
    ["`fixture.json`", "the engine, the plane's flags and time scale, the endpoint it ran at, the versions that wrote it"],
  ];
  const claims =
    engine === "tofu"
      ? "`tofu plan -refresh=false` plans no change with no platform call, `tofu plan` no change and no write, `tofu apply -refresh-only` changes nothing and `tofu destroy` removes every object"
      : "preview plans no change with no platform call, refresh changes nothing and destroy removes every object";
  const text = `# Upgrade-safety fixture ${meta.version} (${ENGINE_NAMES[engine]})

Written by Clusterform ${meta.version} (${written.written}) with

    bash scripts/write-upgrade-fixture.sh${flag} ${meta.version}

${wrap(`It is ${written.what}. Do not edit it: it stands for what users of this release have in their ${engine === "tofu" ? "state files" : "backends"}.`)}

| file | what it is |
|---|---|
${rows.map(([file, what]) => `| ${file} | ${what} |`).join("\n")}

${wrap(`test/e2e/${test} takes it over with the current package, against a plane started on a copy of \`plane/\`, and asserts that ${claims}.`)}
`;
  writeFileSync(path.join(out, "README.md"), text);
}

/** `text` broken into lines of at most 100 characters, at spaces. */
function wrap(text) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join("\n");
}

const ENGINE_NAMES = { dynamic: "Pulumi dynamic provider", native: "native Pulumi plugin", tofu: "OpenTofu" };

async function main() {
  const { version, force, engine } = parseArgs(process.argv.slice(2));
  const root = path.join(ROOT, "test", "fixtures", ENGINES[engine].root);
  const program = path.join(root, "program");
  const out = path.join(root, version);
  if (existsSync(out) && !force) fail(`${path.relative(ROOT, out)} exists; give --force to write it again`);
  if (!existsSync(path.join(ROOT, "dist", "sdk", "index.js"))) fail("dist/ is missing: run `npm run build` first");
  mkdirSync(path.join(ROOT, ".work"), { recursive: true });
  const work = mkdtempSync(path.join(ROOT, ".work", "upgrade-fixture-"));
  const stack = `fixture-${version}`;
  const project = existsSync(path.join(program, "Pulumi.yaml")) ? /^name:\s*(\S+)/m.exec(readFileSync(path.join(program, "Pulumi.yaml"), "utf8"))[1] : undefined;
  let plane;
  try {
    const workspace = path.join(work, "ws");
    installWorkspace(workspace);
    const programDir = path.join(workspace, "program");
    cpSync(program, programDir, { recursive: true });
    plane = await startPlane(workspace, path.join(work, "plane"));
    const staged = path.join(work, "out");
    mkdirSync(path.join(staged, "plane"), { recursive: true });
    const written = ENGINES[engine].write({ work, workspace, programDir, plane, stack, project, out: staged });
    await stopPlane(plane.child);
    // VACUUM INTO writes one compact file with everything committed (no -wal beside it).
    const db = new DatabaseSync(path.join(work, "plane", "state.db"));
    db.exec(`VACUUM INTO '${path.join(staged, "plane", "state.db").replaceAll("'", "''")}'`);
    db.close();

    const meta = { version, engine, ...written.meta, planeFlags: PLANE_FLAGS, timeScale: TIME_SCALE };
    writeFileSync(path.join(staged, "fixture.json"), `${JSON.stringify(meta, null, 2)}\n`);
    writeReadme(staged, engine, meta, written);
    rmSync(out, { recursive: true, force: true });
    cpSync(staged, out, { recursive: true });
    process.stderr.write(`write-upgrade-fixture: wrote ${path.relative(ROOT, out)} (${meta.resources} resources): ${readdirSync(out).join(", ")}\n`);
  } finally {
    if (plane) await stopPlane(plane.child);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => fail(err instanceof Error ? err.stack : String(err)));
