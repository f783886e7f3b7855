import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AllKindsStack, openAllKindsStack } from "../harness/all-kinds";
import type { RunResult } from "../harness/engine";

/** Controls without an accessible name (no aria-label, no text, no label), as HTML: run in the page. */
const UNNAMED_CONTROLS = `[...document.querySelectorAll("button, a, input, select, progress")]
  .filter((el) => !(el.getAttribute("aria-label") || el.textContent.trim() || el.closest("label") || (el.id && document.querySelector('label[for="' + el.id + '"]'))))
  .map((el) => el.outerHTML.slice(0, 120))`;
import { repoRoot, workDir } from "../harness/paths";
import { senlinRest } from "../harness/senlin-stack";

// The web console read as a user reads it, in headless Chromium (Debian's, which the set-up
// installs; playwright-core drives it through `executablePath`, no browser download), while a real
// `pulumi up` of every kind runs against a plane with --kubernetes. Screenshots go to
// .work/console-screenshots, and with CLUSTERFORM_UPDATE_SCREENSHOTS=1 also to docs/images/console,
// which docs/local-plane.md shows.
const CHROMIUM = process.env.CLUSTERFORM_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = path.join(workDir(), "console-screenshots");
const DOC_SHOTS = path.join(repoRoot(), "docs", "images", "console");

let t: AllKindsStack;
let browser: Browser;
let page: Page;
/** Every URL the page asked for: the console talks to the plane only. */
const requested: string[] = [];
let up: Promise<RunResult>;

async function shot(name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env.CLUSTERFORM_UPDATE_SCREENSHOTS === "1") {
    mkdirSync(DOC_SHOTS, { recursive: true });
    copyFileSync(file, path.join(DOC_SHOTS, `${name}.png`));
  }
}

const tab = (name: string) => page.getByRole("tab", { name, exact: true });
const table = (caption: string) => page.getByRole("region", { name: caption, exact: true });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: the set-up installs Debian's chromium (scripts/setup/chromium.sh)`);
  t = await openAllKindsStack({ timeScale: 0.3, planeFlags: ["--kubernetes"] });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on("request", (request) => requested.push(request.url()));
});

afterAll(async () => {
  await browser?.close();
  await t?.plane.stop();
});

describe("the web console, read in Chromium during a real pulumi up", () => {
  it("shows every platform's objects as the up creates them, without a reload", async () => {
    await page.goto(`${t.plane.url}/`);
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^live/);
    up = t.stack.up();
    // The cluster appears while it is being created, and turns RUNNING, on the same page.
    await tab("cma-ssh").click();
    const clusters = table("cma-ssh clusters");
    await expect.poll(() => clusters.textContent(), { timeout: 120_000, interval: 100 }).toMatch(/PROVISIONING/);
    await shot("cmassh-provisioning");
    await up;
    await expect.poll(() => clusters.textContent(), { timeout: 60_000 }).toMatch(/RUNNING/);
    const names = await t.plane.admin<{ clusters: { name: string; pools: { name: string }[] }[] }>("/_local/cmassh/clusters");
    for (const c of names.clusters) {
      const text = await clusters.textContent();
      expect(text).toContain(c.name);
      for (const p of c.pools) expect(text).toContain(p.name);
    }
    await shot("cmassh");

    const views: [string, string, string, (body: never) => string[]][] = [
      ["Senlin", "Senlin clusters", "/_local/senlin/clusters", (b: { clusters: { name: string }[] }) => b.clusters.map((c) => c.name)],
      ["Peloton", "Peloton jobs", "/_local/peloton/jobs", (b: { jobs: { name: string }[] }) => b.jobs.map((j) => j.name)],
      ["vcluster", "vclusters", "/_local/vcluster/vclusters", (b: { vclusters: { name: string }[] }) => b.vclusters.map((v) => v.name)],
      ["vcluster", "vcluster snapshots", "/_local/vcluster/snapshots", (b: { snapshots: { name: string }[] }) => b.snapshots.map((s) => s.name)],
      ["CycleCloud", "CycleCloud nodes", "/_local/cyclecloud/nodes", (b: { nodes: { name: string }[] }) => b.nodes.map((n) => n.name)],
    ];
    for (const [tabName, caption, view, namesOf] of views) {
      await tab(tabName).click();
      const expected = namesOf((await t.plane.admin(view)) as never);
      expect(expected.length).toBeGreaterThan(0);
      const missing = async () => {
        const text = (await table(caption).textContent()) ?? "";
        return expected.filter((name) => !text.includes(name));
      };
      await expect.poll(missing, { message: `${caption} shows ${expected.join(", ")}` }).toEqual([]);
      await shot(tabName.toLowerCase().replace(/[^a-z]/g, ""));
    }
  });

  it("shows a Senlin rolling update batch by batch while it runs", async () => {
    const senlin = await senlinRest(t.plane);
    const spec = (image: string) => ({ type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image } });
    await senlin.call("POST", "/v1/profiles", { profile: { name: "roll-v1", spec: spec("cirros") } });
    await senlin.call("POST", "/v1/profiles", { profile: { name: "roll-v2", spec: spec("cirros-v2") } });
    const batch = { type: "senlin.policy.batch", version: "1.0", properties: { min_in_service: 1, max_batch_size: 1, pause_time: 20 } };
    await senlin.call("POST", "/v1/policies", { policy: { name: "one-at-a-time", spec: batch } });
    const created = await senlin.call("POST", "/v1/clusters", { cluster: { name: "rolling", profile_id: "roll-v1", desired_capacity: 2 } });
    expect(await senlin.waitAction(created.location)).toBe("SUCCEEDED");
    const attached = await senlin.call("POST", "/v1/clusters/rolling/actions", { policy_attach: { policy_id: "one-at-a-time" } });
    expect(await senlin.waitAction(attached.location)).toBe("SUCCEEDED");
    const update = await senlin.call("PATCH", "/v1/clusters/rolling", { cluster: { profile_id: "roll-v2" } });
    expect(update.status).toBe(202);
    await tab("Senlin").click();
    const clusters = table("Senlin clusters");
    // One node per batch, a 6 s pause (20 s at time scale 0.3) after each: the first batch done, the second waiting.
    await expect.poll(() => clusters.textContent(), { timeout: 60_000, interval: 100 }).toMatch(/rolling update: 1 of 2 batches done/);
    const text = (await clusters.textContent()) ?? "";
    expect(text).toMatch(/batch 1: node-\S+ — done/);
    expect(text).toMatch(/batch 2: node-\S+ — (waiting|updating)/);
    await shot("senlin-rolling-update");
    expect(await senlin.waitAction(update.location)).toBe("SUCCEEDED");
    await expect.poll(() => clusters.textContent(), { timeout: 10_000 }).not.toMatch(/rolling update/);
  });

  it("filters the audit log by platform, operation and object", async () => {
    await tab("Audit log").click();
    const audit = page.getByRole("region", { name: "Audit log" });
    await audit.getByLabel("Platform").selectOption("senlin");
    await audit.getByLabel("Operation").selectOption("CreateCluster");
    const rows = audit.getByRole("list", { name: "calls, newest first" }).getByRole("listitem");
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    for (const row of await rows.allTextContents()) expect(row).toMatch(/senlin\s*CreateCluster/);
    await audit.getByLabel("Platform").selectOption("cmassh");
    await audit.getByLabel("Operation").selectOption("AddNodePool");
    const pool = (await t.plane.admin<{ clusters: { name: string; pools: { name: string }[] }[] }>("/_local/cmassh/clusters")).clusters[0];
    await audit.getByLabel("Object").fill(pool.pools[0].name);
    await expect.poll(async () => (await rows.allTextContents()).length).toBe(1);
    expect((await rows.allTextContents())[0]).toContain(`${pool.name}/${pool.pools[0].name}`);
    await audit.getByLabel("Object").fill("");
    await shot("audit");
  });

  it("arms a fault from its form and clears it with its button", async () => {
    await tab("Faults").click();
    const faults = page.getByRole("region", { name: "Faults" });
    await faults.getByLabel("Platform", { exact: true }).selectOption("cmassh");
    await faults.getByLabel("Operation", { exact: true }).selectOption("ScaleNodePool");
    await faults.getByLabel("Action", { exact: true }).selectOption("error");
    await faults.getByLabel("Probability", { exact: true }).fill("0.25");
    await faults.getByRole("button", { name: "Arm fault" }).click();
    await expect.poll(async () => (await t.plane.admin<{ faults: { operation?: string; probability?: number }[] }>("/_local/faults")).faults).toEqual([
      expect.objectContaining({ operation: "ScaleNodePool", probability: 0.25 }),
    ]);
    await expect.poll(() => faults.textContent()).toMatch(/error \(UNAVAILABLE\) on cmassh \/ ScaleNodePool with probability 0.25/);
    await shot("faults");
    const { faults: armed } = await t.plane.admin<{ faults: { id: string }[] }>("/_local/faults");
    await faults.getByRole("button", { name: `Clear fault ${armed[0].id}` }).click();
    await expect.poll(async () => (await t.plane.admin<{ faults: unknown[] }>("/_local/faults")).faults).toEqual([]);
    await expect.poll(() => faults.textContent()).toMatch(/No fault is armed/);
  });

  it("downloads a cluster's kubeconfig, which names its real API server", async () => {
    await tab("cma-ssh").click();
    const [name] = (await t.plane.admin<{ clusters: { name: string }[] }>("/_local/cmassh/clusters")).clusters.map((c) => c.name);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: `Download the kubeconfig of ${name}` }).click()]);
    const file = await download.path();
    const kubeconfig = readFileSync(file, "utf8");
    expect(download.suggestedFilename()).toBe(`${name}.kubeconfig`);
    expect(kubeconfig).toMatch(/server: https:\/\/127\.0\.0\.1:\d+\n/);
    expect(kubeconfig).toMatch(/certificate-authority-data: \S{100,}/);
  });

  it("asked for nothing but the plane", () => {
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((url) => !url.startsWith(`${t.plane.url}/`))).toEqual([]);
  });

  it("gives every control an accessible name", async () => {
    for (const name of ["cma-ssh", "CycleCloud", "Senlin", "Peloton", "vcluster", "Audit log", "Faults"]) {
      await tab(name).click();
      const unnamed = await page.evaluate<string[]>(UNNAMED_CONTROLS);
      expect(unnamed, `controls without a name on the ${name} tab`).toEqual([]);
    }
  });
});
