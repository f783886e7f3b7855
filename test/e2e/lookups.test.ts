import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks } from "../../tools/reference-docs/doc-examples";
import { ALL_KINDS_PLANE_FLAGS } from "../harness/all-kinds";
import { changingSteps, type EngineStack, openStack } from "../harness/engine";
import { type LocalPlane, mutations, startLocalPlane } from "../harness/local-plane";
import { repoRoot } from "../harness/paths";
import { SENLIN_USER } from "../harness/senlin-stack";
import { openTofuDir, type TofuDir } from "../harness/tofu";
import { packageWorkspace } from "../harness/workspace";
import { CC_PASSWORD } from "./cyclecloud-support";

/*
 * Lookups through the real engines (issue 27): a YAML stack on the native plugin owns a cma-ssh
 * cluster (created at the newest version getVersions offers), a vcluster and a Senlin cluster; three
 * readers look them up without owning them (a TypeScript program on clusterform/native, a YAML
 * program with fn::invoke, an HCL configuration with data sources) and use the kubeconfigs with
 * kubectl against the plane's real API servers (--kubernetes). The owner scales, the readers see the
 * new value with no change of their own; the owner destroys, the readers fail naming kind, key and
 * endpoint. The plane also starts with a seed file (--seed) holding a Senlin cluster no program made,
 * the existing cluster a user looks up by name: the YAML reader finds it.
 */

const run = promisify(execFile);
const kubectlBinary = process.env.CLUSTERFORM_KUBECTL ?? "kubectl";
/** The versions the plane offers, not in order: the owner must pick the newest. */
const OFFERED = ["1.31.6", "1.33.1", "1.30.10"];
const PLUGIN = "plugins:\n  providers:\n    - name: clusterform\n      path: node_modules/clusterform/plugin\n";

const OWNER = `name: lookups-owner
runtime: yaml
${PLUGIN}
config:
  capacity:
    type: integer
    default: 1
variables:
  offered:
    fn::invoke:
      function: clusterform:cmassh:getVersions
resources:
  cluster:
    type: clusterform:cmassh:Cluster
    properties:
      name: lookups-prod
      kubernetesVersion: \${offered.newest}
      controlPlane:
        instanceType: standard
        count: 1
  vc:
    type: clusterform:vcluster:VCluster
    properties:
      name: lookups-vc
      namespace: team-a
  profile:
    type: clusterform:senlin:Profile
    properties:
      spec:
        type: os.nova.server
        version: "1.0"
        properties:
          flavor: m1.small
  web:
    type: clusterform:senlin:Cluster
    properties:
      name: lookups-web
      profile: \${profile.id}
      maxSize: 5
      desiredCapacity: \${capacity}
outputs:
  vcId: \${vc.id}
  webId: \${web.id}
`;

const READER_YAML = `name: lookups-reader-yaml
runtime: yaml
${PLUGIN}
config:
  vcId:
    type: string
  webId:
    type: string
variables:
  prod:
    fn::invoke:
      function: clusterform:cmassh:getCluster
      arguments:
        name: lookups-prod
  vc:
    fn::invoke:
      function: clusterform:vcluster:getVCluster
      arguments:
        id: \${vcId}
  web:
    fn::invoke:
      function: clusterform:senlin:getCluster
      arguments:
        id: \${webId}
  seeded:
    fn::invoke:
      function: clusterform:senlin:getClusters
      arguments:
        name: lookups-seeded
outputs:
  prodKubeconfig: \${prod.kubeconfig}
  vcKubeconfig: \${vc.kubeconfig}
  capacity: \${web.desiredCapacity}
  seeded: \${seeded.clusters}
`;

/** The plane's seed file: a Senlin cluster that exists before any program runs, the readers' user's. */
const SEED = `senlin:
  auth: { user: ${SENLIN_USER.username}, password: ${SENLIN_USER.password}, project: ${SENLIN_USER.project} }
  profiles: [{ name: seeded-small }]
  clusters: [{ name: lookups-seeded, profile: seeded-small, maxSize: 4, desiredCapacity: 2 }]
`;

const READER_TS = `import * as pulumi from "@pulumi/pulumi";
import { cmassh, senlin } from "clusterform/native";

const config = new pulumi.Config();
const prod = cmassh.getClusterOutput({ name: "lookups-prod" });
const web = senlin.getClusterOutput({ id: config.require("webId") });
// The resource class's static get: the live cluster in the program, never changed or deleted by it.
const seen = cmassh.Cluster.get("seen", "lookups-prod");

export const prodKubeconfig = prod.kubeconfig;
export const capacity = web.desiredCapacity;
export const seenStatus = seen.status;
export const newest = cmassh.getVersionsOutput().newest;
`;

const READER_HCL = `terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

provider "clusterform" {}

variable "web_id" {
  type = string
}

data "clusterform_cmassh_cluster" "prod" {
  name = "lookups-prod"
}

data "clusterform_senlin_cluster" "web" {
  id = var.web_id
}

output "capacity" {
  value = data.clusterform_senlin_cluster.web.desired_capacity
}

output "prod_kubeconfig" {
  value     = data.clusterform_cmassh_cluster.prod.kubeconfig
  sensitive = true
}
`;

describe("lookups through the real engines: one stack owns, three programs read", () => {
  let workspace: string;
  let plane: LocalPlane;
  let owner: EngineStack;
  let readerYaml: EngineStack;
  let readerTs: EngineStack;
  let readerHcl: TofuDir;
  let kubeDir: string;
  const config = {
    "clusterform:senlinUsername": { value: SENLIN_USER.username },
    "clusterform:senlinProjectName": { value: SENLIN_USER.project },
    "clusterform:senlinPassword": { value: SENLIN_USER.password, secret: true },
  };

  /** A program folder in the workspace, its plugin path and imports resolving to the installed package. */
  function program(label: string, files: Record<string, string>): string {
    const dir = mkdtempSync(path.join(workspace, `${label}-`));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    symlinkSync(path.join(workspace, "node_modules"), path.join(dir, "node_modules"));
    return dir;
  }

  /** kubectl with a kubeconfig the lookups returned. */
  async function kubectl(kubeconfig: string, label: string, ...args: string[]): Promise<string> {
    const file = path.join(kubeDir, `${label}.kubeconfig`);
    writeFileSync(file, kubeconfig);
    return (await run(kubectlBinary, ["--kubeconfig", file, "--request-timeout=30s", ...args])).stdout;
  }

  const writesSince = async (since: number) => mutations(await plane.audit(since)).filter((m) => !/^(Get|List|Query|Watch|Lookup|CreateToken)/.test(m.split(" ")[0].split(":").at(-1) ?? ""));

  beforeAll(async () => {
    workspace = packageWorkspace();
    kubeDir = mkdtempSync(path.join(workspace, "kube-"));
    const seed = path.join(kubeDir, "seed.yaml");
    writeFileSync(seed, SEED);
    plane = await startLocalPlane({ workspace, timeScale: 0.1, flags: [...ALL_KINDS_PLANE_FLAGS, "--kubernetes", "--cmassh-versions", OFFERED.join(","), "--seed", seed] });
    const endpoint = { "clusterform:endpoint": { value: plane.url } };
    owner = await openStack({ programDir: program("owner", { "Pulumi.yaml": OWNER }), config: { ...endpoint, ...config } });
    readerYaml = await openStack({ programDir: program("reader-yaml", { "Pulumi.yaml": READER_YAML }), config: { ...endpoint, ...config } });
    const tsDir = program("reader-ts", { "Pulumi.yaml": "name: lookups-reader-ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n" + PLUGIN, "index.ts": READER_TS });
    cpSync(path.join(repoRoot(), "examples", "cmassh", "tsconfig.json"), path.join(tsDir, "tsconfig.json"));
    readerTs = await openStack({ programDir: tsDir, config: { ...endpoint, ...config } });
    const hclSource = mkdtempSync(path.join(workspace, "reader-hcl-src-"));
    writeFileSync(path.join(hclSource, "main.tf"), READER_HCL);
    readerHcl = openTofuDir("lookups-reader", { example: "", source: hclSource, providerDir: path.join(workspace, "node_modules", "clusterform", "bin"), endpoint: plane.url });
    Object.assign(readerHcl.env, { OS_USERNAME: SENLIN_USER.username, OS_PASSWORD: SENLIN_USER.password, OS_PROJECT_NAME: SENLIN_USER.project, CLUSTERFORM_CYCLECLOUD_PASSWORD: CC_PASSWORD });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("every reference page's HCL lookup example validates against the provider's schema", async () => {
    const blocks = readdirSync(path.join(repoRoot(), "docs", "reference"))
      .map((f) => readFileSync(path.join(repoRoot(), "docs", "reference", f), "utf8"))
      .flatMap((text) => (text.includes("## Lookups") ? codeBlocks(text.slice(text.indexOf("## Lookups")), "hcl") : []));
    expect(blocks.length).toBe(Object.keys(JSON.parse(readFileSync(path.join(repoRoot(), "schema.json"), "utf8")).functions).length);
    // One configuration of them all: each example's data source and output renamed apart.
    const all = blocks.map((b, i) => b.replace(/\bfound\b/g, `found_${i}`).replace(/^output "(\w+)"/m, `output "$1_${i}"`));
    const source = mkdtempSync(path.join(workspace, "hcl-examples-"));
    writeFileSync(path.join(source, "main.tf"), [READER_HCL.slice(0, READER_HCL.indexOf('provider "clusterform"')), ...all].join("\n"));
    const dir = openTofuDir("lookups-examples", { example: "", source, providerDir: path.join(workspace, "node_modules", "clusterform", "bin"), endpoint: plane.url });
    expect((await dir.ok(["validate", "-no-color"])).stdout).toContain("The configuration is valid");
    // The check is real: an attribute the data source does not have fails.
    writeFileSync(path.join(dir.dir, "main.tf"), readFileSync(path.join(dir.dir, "main.tf"), "utf8").replace("name = ", "nmae = "));
    const misspelt = await dir.run(["validate", "-no-color"]);
    expect(misspelt.code).not.toBe(0);
    expect(misspelt.stdout + misspelt.stderr).toMatch(/Unsupported argument[\s\S]*"nmae"/);
  });

  it("the owner creates its cma-ssh cluster at the newest version getVersions offers", async () => {
    await owner.up();
    const cluster = (await plane.cmasshClusters()).find((c) => c.name === "lookups-prod");
    expect(cluster?.k8sVersion).toBe("1.33.1");
    const outputs = await owner.stack.outputs();
    for (const stack of [readerYaml, readerTs]) {
      await stack.setConfig("vcId", String(outputs.vcId.value));
      await stack.setConfig("webId", String(outputs.webId.value));
    }
  });

  it("the readers look the objects up, writing nothing: kubeconfigs are secrets that kubectl uses, a static get reads the live cluster, and the seeded cluster is found by name", async () => {
    const since = await plane.lastSeq();
    const yaml = await readerYaml.up();
    expect(changingSteps(yaml)).toEqual([]);
    const yamlOutputs = await readerYaml.stack.outputs();
    expect(yamlOutputs.prodKubeconfig.secret).toBe(true);
    expect(yamlOutputs.vcKubeconfig.secret).toBe(true);
    expect(yamlOutputs.capacity.value).toBe(1);
    // The cluster the seed file made: settled (ACTIVE, its two nodes made) before any program ran.
    const seeded = yamlOutputs.seeded.value as { name: string; profileName: string; status: string; desiredCapacity: number; maxSize: number; nodeIds: string[] }[];
    expect(seeded.map((c) => [c.name, c.profileName, c.status, c.desiredCapacity, c.maxSize, c.nodeIds.length])).toEqual([["lookups-seeded", "seeded-small", "ACTIVE", 2, 4, 2]]);
    expect(await kubectl(String(yamlOutputs.prodKubeconfig.value), "prod", "get", "namespace", "default", "-o", "name")).toContain("namespace/default");
    expect(await kubectl(String(yamlOutputs.vcKubeconfig.value), "vc", "get", "namespace", "default", "-o", "name")).toContain("namespace/default");

    const ts = await readerTs.up();
    // A static get is no import: no warning about inputs the platform does not report.
    expect(ts.stdout).not.toContain("is imported");
    const tsOutputs = await readerTs.stack.outputs();
    expect(tsOutputs.prodKubeconfig.secret).toBe(true);
    expect(tsOutputs.prodKubeconfig.value).toBe(yamlOutputs.prodKubeconfig.value);
    expect(tsOutputs.capacity.value).toBe(1);
    expect(tsOutputs.seenStatus.value).toBe("RUNNING");
    expect(tsOutputs.newest.value).toBe("1.33.1");

    // No `tofu init`: the provider comes from the CLI configuration's dev_overrides.
    await readerHcl.ok(["apply", "-auto-approve", "-input=false", "-var", `web_id=${String((await owner.stack.outputs()).webId.value)}`]);
    const hcl = JSON.parse((await readerHcl.ok(["output", "-json"])).stdout);
    expect(hcl.capacity.value).toBe(1);
    expect(hcl.prod_kubeconfig.sensitive).toBe(true);
    expect(hcl.prod_kubeconfig.value).toBe(yamlOutputs.prodKubeconfig.value);
    expect(await writesSince(since)).toEqual([]);
  });

  it("the owner scales; each reader's next preview shows the new value and no change of its own", async () => {
    await owner.setConfig("capacity", "2");
    await owner.up();
    const webId = String((await owner.stack.outputs()).webId.value);
    const yaml = await readerYaml.preview();
    expect(changingSteps(yaml)).toEqual([]);
    expect(yaml.stdout).toMatch(/capacity\s*:\s*1\s*=>\s*2/);
    const ts = await readerTs.preview();
    // The static get reads the live cluster again at every run: a read, never a change.
    expect(changingSteps(ts).map((s) => `${s.op} ${s.name}`)).toEqual(["read seen"]);
    expect(ts.stdout).toMatch(/capacity\s*:\s*1\s*=>\s*2/);
    const plan = await readerHcl.run(["plan", "-input=false", "-no-color", "-detailed-exitcode", "-var", `web_id=${webId}`]);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/Changes to Outputs:\s+~ capacity\s*=\s*1\s*->\s*2/);
    expect(plan.stdout).toContain("without changing any real infrastructure");
  });

  it("the owner destroys; each reader's preview fails naming the kind, the key and the endpoint", async () => {
    const { webId: web, vcId: vc } = await owner.stack.outputs();
    const webId = String(web.value);
    await owner.destroy();
    const missing = `looking up cmassh:Cluster name "lookups-prod": NOT_FOUND: no such object at the cmassh endpoint ${plane.url}`;
    // A reader's lookups of the three objects may run side by side (the TypeScript one's static get
    // too): whichever fails first is reported, each naming its kind, key and endpoint.
    const url = plane.url.replace(/[.]/g, "\\.");
    const anyMissing = new RegExp(
      `(looking up cmassh:Cluster name "lookups-prod"|reading cmassh:Cluster "lookups-prod"|looking up vcluster:VCluster id "${vc.value}"|looking up senlin:Cluster id "${webId}"): NOT_FOUND: no such object at the (cmassh|vcluster|senlin) endpoint ${url}`,
    );
    await expect(readerYaml.preview()).rejects.toThrow(anyMissing);
    await expect(readerTs.preview()).rejects.toThrow(anyMissing);
    const plan = await readerHcl.run(["plan", "-input=false", "-no-color", "-var", `web_id=${webId}`]);
    expect(plan.code).not.toBe(0);
    expect(plan.stderr.replace(/\s+/g, " ")).toContain(missing);
  });
});
