// Writes the upgrade-safety fixture of this release: test/fixtures/upgrade/<version>/.
//
// It installs the built package as users do (a packed tarball), starts a fresh local control plane,
// runs `pulumi up` of the fixture program (test/fixtures/upgrade/program) and `pulumi refresh`, with a
// file backend and the tests' passphrase, then saves what a later release needs to take the stack
// over: the program, the stack config file (with its encryption salt), the exported state and the
// plane's database after a clean stop. test/e2e/upgrade-fixtures.test.ts reads every such directory.
//
// Usage (after `npm run build`; scripts/write-upgrade-fixture.sh does both):
//   node scripts/write-upgrade-fixture.mjs [--force] [version]
// version defaults to package.json's; --force overwrites an existing fixture directory.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PROGRAM = path.join(ROOT, "test", "fixtures", "upgrade", "program");
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
  const rest = argv.filter((a) => a !== "--force");
  if (rest.length > 1 || rest.some((a) => a.startsWith("-"))) fail(`usage: write-upgrade-fixture.mjs [--force] [version], got ${argv.join(" ")}`);
  const version = rest[0] ?? JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) fail(`version must be MAJOR.MINOR.PATCH[-pre], got "${version}"`);
  return { version, force };
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

/** Creates the Senlin profile and policy the program names, as an operator would before `up`. */
async function seedSenlin(url) {
  const identity = { methods: ["password"], password: { user: { name: SENLIN.username, domain: { name: "Default" }, password: SENLIN.password } } };
  const auth = await fetch(`${url}/v3/auth/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ auth: { identity, scope: { project: { name: SENLIN.project, domain: { name: "Default" } } } } }),
  });
  if (auth.status !== 201) throw new Error(`Keystone token: HTTP ${auth.status} ${await auth.text()}`);
  const headers = { "Content-Type": "application/json", "X-Auth-Token": auth.headers.get("x-subject-token") ?? "" };
  const create = async (kind, body) => {
    const response = await fetch(`${url}/v1/${kind}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`Senlin ${kind}: HTTP ${response.status} ${await response.text()}`);
  };
  await create("profiles", { profile: { name: "web-profile", spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } } } });
  await create("policies", { policy: { name: "deletion", spec: { type: "senlin.policy.deletion", version: "1.0", properties: {} } } });
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

function writeReadme(out, meta) {
  const text = `# Upgrade-safety fixture ${meta.version}

Written by Clusterform ${meta.version} (Pulumi CLI ${meta.pulumiCli}, @pulumi/pulumi ${meta.pulumiSdk}) with

    bash scripts/write-upgrade-fixture.sh ${meta.version}

It is the stack \`${meta.stack}\` of the project \`${meta.project}\` right after \`pulumi up\` of
\`index.js\` and \`pulumi refresh\`, against a fresh local control plane (flags in \`fixture.json\`),
with a file backend and the tests' passphrase \`${PASSPHRASE}\`. Do not edit it: it stands for what
users of this release have in their backends.

| file | what it is |
|---|---|
| \`Pulumi.yaml\`, \`index.js\` | the program, as it was |
| \`Pulumi.${meta.stack}.yaml\` | the stack config: its \`encryptionsalt\` and the passwords as secrets |
| \`state.json\` | \`pulumi stack export\` after the \`up\` and a \`refresh\` (secrets encrypted) |
| \`plane/state.db\` | the local control plane's database after a clean stop: the objects the state names |
| \`fixture.json\` | the stack name, the plane's flags and time scale, the versions that wrote it |

test/e2e/upgrade-fixtures.test.ts imports it into a fresh backend with the current package and
asserts that preview plans no change, refresh changes nothing and destroy removes every object.
`;
  writeFileSync(path.join(out, "README.md"), text);
}

async function main() {
  const { version, force } = parseArgs(process.argv.slice(2));
  const out = path.join(ROOT, "test", "fixtures", "upgrade", version);
  if (existsSync(out) && !force) fail(`${path.relative(ROOT, out)} exists; give --force to write it again`);
  if (!existsSync(path.join(ROOT, "dist", "sdk", "index.js"))) fail("dist/ is missing: run `npm run build` first");
  mkdirSync(path.join(ROOT, ".work"), { recursive: true });
  const work = mkdtempSync(path.join(ROOT, ".work", "upgrade-fixture-"));
  const stack = `fixture-${version}`;
  const project = /^name:\s*(\S+)/m.exec(readFileSync(path.join(PROGRAM, "Pulumi.yaml"), "utf8"))[1];
  let plane;
  try {
    const workspace = path.join(work, "ws");
    const pulumiSdk = installWorkspace(workspace);
    const programDir = path.join(workspace, "program");
    cpSync(PROGRAM, programDir, { recursive: true });
    plane = await startPlane(workspace, path.join(work, "plane"));
    await seedSenlin(plane.url);

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

    rmSync(out, { recursive: true, force: true });
    mkdirSync(path.join(out, "plane"), { recursive: true });
    pulumi(["stack", "export", "--file", path.join(out, "state.json")]);
    for (const file of ["Pulumi.yaml", "index.js", `Pulumi.${stack}.yaml`]) cpSync(path.join(programDir, file), path.join(out, file));
    await stopPlane(plane.child);
    // VACUUM INTO writes one compact file with everything committed (no -wal beside it).
    const db = new DatabaseSync(path.join(work, "plane", "state.db"));
    db.exec(`VACUUM INTO '${path.join(out, "plane", "state.db").replaceAll("'", "''")}'`);
    db.close();

    const resources = JSON.parse(readFileSync(path.join(out, "state.json"), "utf8")).deployment.resources ?? [];
    const kinds = resources.map((r) => r.type).filter((t) => t.startsWith("pulumi-nodejs:dynamic/"));
    const meta = { version, stack, project, planeFlags: PLANE_FLAGS, timeScale: TIME_SCALE, pulumiCli, pulumiSdk, recordedEndpoint: plane.url, resources: kinds.length };
    writeFileSync(path.join(out, "fixture.json"), `${JSON.stringify(meta, null, 2)}\n`);
    writeReadme(out, meta);
    process.stderr.write(`write-upgrade-fixture: wrote ${path.relative(ROOT, out)} (${kinds.length} resources): ${readdirSync(out).join(", ")}\n`);
  } finally {
    if (plane) await stopPlane(plane.child);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => fail(err instanceof Error ? err.stack : String(err)));
