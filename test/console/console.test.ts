import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { started } from "../../emulator/console/app/senlin-progress";
import { type AllKindsStack, openAllKindsStack } from "../harness/all-kinds";
import type { RunResult } from "../harness/engine";
import type { LocalPlane } from "../harness/local-plane";
import { repoRoot, workDir } from "../harness/paths";
import { senlinRest } from "../harness/senlin-stack";
import { CONSOLE_SCREENSHOT_DIR, CONSOLE_SCREENSHOTS, type ConsoleScreenshot } from "./screenshots";

// The web console read as a user reads it, in headless Chromium (Debian's, which the set-up
// installs; playwright-core drives it through `executablePath`, no browser download), while real
// `pulumi up`s of every kind run against a plane with --kubernetes: the first creates the stack,
// the second (the program's round 1) upgrades, resizes and updates it while a Senlin rolling update
// made through Senlin's API runs beside it (side by side, the two cost the file one wait, not two).
// The plane runs at its default time scale, 1, as users run it: its operations then last the
// seconds a person watches them for (a cma-ssh upgrade 2 s, a Senlin resize 2 s). Screenshots go to
// .work/console-screenshots, and with CLUSTERFORM_UPDATE_SCREENSHOTS=1 also to docs/images/console,
// which docs/local-plane.md shows (test/console/screenshots.ts lists them).
const CHROMIUM = process.env.CLUSTERFORM_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = path.join(workDir(), "console-screenshots");
const DOC_SHOTS = path.join(repoRoot(), CONSOLE_SCREENSHOT_DIR);

/** Controls without an accessible name (no aria-label, no text, no label), as HTML: run in the page. */
const UNNAMED_CONTROLS = `[...document.querySelectorAll("button, a, input, select, progress")]
  .filter((el) => !(el.getAttribute("aria-label") || el.textContent.trim() || el.closest("label") || (el.id && document.querySelector('label[for="' + el.id + '"]'))))
  .map((el) => el.outerHTML.slice(0, 120))`;

/**
 * Run in every page before the console's own script, as a person's eyes and a pause key:
 * `__console.rows` holds every distinct row each table (a section with a name) has shown, its cells'
 * texts joined by " | ", and `__console.bars` every value each named progress bar has shown, in
 * order, noted whenever the page changes, so an operation shown for half a second is not missed by a
 * test looking elsewhere at the time; `__console.hold()` keeps the live stream's events from the
 * page (a screenshot then shows one moment) and `__console.release()`, once every hold is released,
 * hands them over one by one, each rendered.
 */
const WATCH_THE_PAGE = `(() => {
  const rows = {};
  const bars = {};
  let held = null;
  let holds = 0;
  const note = () => {
    for (const region of document.querySelectorAll("section[aria-label]")) {
      const seen = (rows[region.getAttribute("aria-label")] ??= []);
      for (const row of region.querySelectorAll("tbody tr")) {
        const text = [...row.children].map((cell) => cell.textContent.replace(/\\s+/g, " ").trim()).join(" | ");
        if (!seen.includes(text)) seen.push(text);
      }
    }
    for (const bar of document.querySelectorAll("progress[aria-label]")) {
      const seen = (bars[bar.getAttribute("aria-label")] ??= []);
      if (seen.at(-1) !== bar.value) seen.push(bar.value);
    }
  };
  window.__console = {
    rows,
    bars,
    hold() {
      holds += 1;
      held ??= [];
    },
    async release() {
      holds -= 1;
      if (holds > 0) return;
      const queue = held ?? [];
      held = null;
      for (const deliver of queue) {
        deliver();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
  };
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    addEventListener(type, listener, options) {
      const pass = (event) => (held && type !== "open" && type !== "error" ? held.push(() => listener(event)) : listener(event));
      super.addEventListener(type, pass, options);
    }
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

/** What a page's watcher saw (see {@link WATCH_THE_PAGE}). */
interface Seen {
  rows: Record<string, string[]>;
  bars: Record<string, number[]>;
}

let t: AllKindsStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every URL a page asked for: the console talks to the plane only. */
const requested: string[] = [];
const taken = new Set<ConsoleScreenshot>();
let up: Promise<RunResult>;

/** A new browser tab on the console (on the tab `hash` names), live. */
async function openConsole(hash = ""): Promise<Page> {
  const tabPage = await context.newPage();
  tabPage.on("request", (request) => requested.push(request.url()));
  await tabPage.goto(`${t.plane.url}/${hash ? `#${hash}` : ""}`);
  await tabPage.getByRole("status").filter({ hasText: /^live/ }).waitFor();
  return tabPage;
}

/** Takes one of the documented screenshots of `on`, with the live stream held for it. */
async function shot(name: ConsoleScreenshot, on: Page = page): Promise<void> {
  expect(taken.has(name), `screenshot ${name} taken twice`).toBe(false);
  taken.add(name);
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await on.evaluate("window.__console.hold()");
  try {
    await on.screenshot({ path: file, fullPage: true });
  } finally {
    await on.evaluate("window.__console.release()");
  }
  if (process.env.CLUSTERFORM_UPDATE_SCREENSHOTS === "1") {
    mkdirSync(DOC_SHOTS, { recursive: true });
    copyFileSync(file, path.join(DOC_SHOTS, `${name}.png`));
  }
}

const seen = (on: Page) => on.evaluate<Seen>("window.__console");
const tab = (name: string, on: Page = page) => on.getByRole("tab", { name, exact: true });
const table = (caption: string, on: Page = page) => on.getByRole("region", { name: caption, exact: true });

/** What one console row must show: its first cell, then per column an exact text or texts the cell contains. */
interface RowCheck {
  key: string;
  cells: Record<string, string | string[]>;
}

interface CmasshView {
  name: string;
  status: string;
  k8sVersion: string;
  controlPlane: { count: number; instanceType: string };
  pools: { name: string; count: number; instanceType: string }[];
  operations: { kind: string; version?: string }[];
}
interface SenlinMember {
  id: string;
  name: string;
  status: string;
  cluster_id: string;
  index: number;
  profile_id: string;
  profile_name: string;
}
interface SenlinClusterView {
  id: string;
  name: string;
  status: string;
  min_size: number;
  desired_capacity: number;
  max_size: number;
  profile_id: string;
  profile_name: string;
  members: SenlinMember[];
  bindings: { policy_id: string; enabled: boolean }[];
  actions_in_flight: { action: string; status: string; start_time: number | null }[];
}
interface PelotonJobView {
  name: string;
  respoolId: string;
  state: string;
  pods: { instanceId: number; state: string; configVersion: number }[];
  workflow?: { type: string; state: string; done: number[]; current: number[]; todo: number[] };
}

/** The plane's admin views the console shows, read now. */
async function planeViews(plane: LocalPlane) {
  const [cmassh, ccClusters, ccNodes, senlin, senlinNodes, profiles, policies, receivers, respools, jobs, vclusters, snapshots] = await Promise.all([
    plane.admin<{ clusters: CmasshView[] }>("/_local/cmassh/clusters"),
    plane.admin<{ clusters: { name: string; nodearrays: { name: string; activeCount: number; maxCount: number }[] }[] }>("/_local/cyclecloud/clusters"),
    plane.admin<{ nodes: { name: string; cluster: string; nodearray: string; machineType: string; state: string; targetState: string }[] }>("/_local/cyclecloud/nodes"),
    plane.admin<{ clusters: SenlinClusterView[] }>("/_local/senlin/clusters"),
    plane.admin<{ nodes: SenlinMember[] }>("/_local/senlin/nodes"),
    plane.admin<{ profiles: { id: string; name: string; type: string }[] }>("/_local/senlin/profiles"),
    plane.admin<{ policies: { id: string; name: string; type: string; clusters: string[] }[] }>("/_local/senlin/policies"),
    plane.admin<{ receivers: { name: string; type: string; cluster_id: string | null; action: string | null }[] }>("/_local/senlin/receivers"),
    plane.admin<{ respools: { id: string; path: string; resources: { kind: string; reservation: number; limit: number }[]; jobs: number }[] }>("/_local/peloton/respools"),
    plane.admin<{ jobs: PelotonJobView[] }>("/_local/peloton/jobs"),
    plane.admin<{ vclusters: { namespace: string; name: string; phase: string; spec: { kubernetes_version?: string }; replicas: { desired: number }; operationsInFlight: string[] }[] }>(
      "/_local/vcluster/vclusters",
    ),
    plane.admin<{ snapshots: { name: string; namespace: string; vclusterName: string; status: string }[] }>("/_local/vcluster/snapshots"),
  ]);
  return { cmassh, ccClusters, ccNodes, senlin, senlinNodes, profiles, policies, receivers, respools, jobs, vclusters, snapshots };
}

/** The platform tabs, each with the screenshot taken of it once it shows what the plane holds. */
const PLATFORM_TABS: readonly { tab: string; shot: ConsoleScreenshot }[] = [
  { tab: "cma-ssh", shot: "cmassh" },
  { tab: "CycleCloud", shot: "cyclecloud" },
  { tab: "Senlin", shot: "senlin" },
  { tab: "Peloton", shot: "peloton" },
  { tab: "vcluster", shot: "vcluster" },
];

/** Every console table by tab and caption, with the rows the plane's views say it must show now. */
async function expectedTables(plane: LocalPlane): Promise<Record<string, Record<string, RowCheck[]>>> {
  const v = await planeViews(plane);
  const clusterName = new Map(v.senlin.clusters.map((c) => [c.id, c.name]));
  const policyName = new Map(v.policies.policies.map((p) => [p.id, p.name]));
  const poolPath = new Map(v.respools.respools.map((p) => [p.id, p.path]));
  const nodes = (n: number) => `${n} node${n === 1 ? "" : "s"}`;
  return {
    "cma-ssh": {
      "cma-ssh clusters": v.cmassh.clusters.map((c) => ({
        key: c.name,
        cells: {
          status: [c.status],
          version: c.k8sVersion,
          "control plane": `${c.controlPlane.count} × ${c.controlPlane.instanceType}`,
          "node pools": c.pools.map((p) => `${p.name}: ${p.count} × ${p.instanceType}`),
          "operations in flight": c.operations.map((op) => op.kind),
        },
      })),
    },
    CycleCloud: {
      "CycleCloud clusters": v.ccClusters.clusters.map((c) => ({
        key: c.name,
        cells: { "nodearrays (active / most)": c.nodearrays.map((n) => `${n.name}: ${n.activeCount} / ${n.maxCount}`) },
      })),
      "CycleCloud nodes": v.ccNodes.nodes.map((n) => ({
        key: n.name,
        cells: { cluster: n.cluster, nodearray: n.nodearray, "machine type": n.machineType, state: n.state, target: [n.targetState] },
      })),
    },
    Senlin: {
      "Senlin clusters": v.senlin.clusters.map((c) => ({
        key: c.name,
        cells: {
          status: [c.status],
          "size (min / desired / max)": `${c.min_size} / ${c.desired_capacity} / ${c.max_size}`,
          profile: c.profile_name,
          members: c.members.map((m) => `${m.name} ${m.status}`),
          // The cluster's `policies` are binding ids: the console names the bound policies.
          policies: c.bindings.length ? c.bindings.map((b) => `${policyName.get(b.policy_id)}${b.enabled ? "" : " (disabled)"}`) : "none",
          "actions in flight": c.actions_in_flight.map((a) => a.action),
        },
      })),
      "Senlin nodes": v.senlinNodes.nodes.map((n) => ({
        key: n.name,
        cells: { cluster: clusterName.get(n.cluster_id) ?? "orphan", index: String(n.index), status: n.status, profile: n.profile_name },
      })),
      "Senlin profiles": v.profiles.profiles.map((p) => {
        const users = v.senlin.clusters.filter((c) => c.profile_id === p.id).map((c) => c.name);
        const onNodes = v.senlinNodes.nodes.filter((n) => n.profile_id === p.id).length;
        return { key: p.name, cells: { type: p.type, "used by": users.length || onNodes ? [...users, ...(onNodes ? [nodes(onNodes)] : [])] : "nothing" } };
      }),
      "Senlin policies": v.policies.policies.map((p) => ({
        key: p.name,
        cells: { type: p.type, "attached to": p.clusters.length ? p.clusters.map((id) => clusterName.get(id) ?? id) : "no cluster" },
      })),
      "Senlin receivers": v.receivers.receivers.map((r) => ({
        key: r.name,
        cells: { type: r.type, cluster: r.cluster_id ? (clusterName.get(r.cluster_id) ?? r.cluster_id) : "", action: r.action ?? "" },
      })),
    },
    Peloton: {
      "Peloton resource pools": v.respools.respools.map((p) => ({
        key: p.path,
        cells: { limits: p.resources.length ? p.resources.map((r) => `${r.kind} ${r.reservation}–${r.limit}`) : "no limits", jobs: String(p.jobs) },
      })),
      "Peloton jobs": v.jobs.jobs.map((j) => ({
        key: j.name,
        cells: {
          pool: poolPath.get(j.respoolId) ?? "",
          state: j.state,
          pods: j.pods.map((p) => `#${p.instanceId} ${p.state} v${p.configVersion}`),
          workflow: j.workflow ? [`${j.workflow.type} ${j.workflow.state}`] : "—",
        },
      })),
    },
    vcluster: {
      vclusters: v.vclusters.vclusters.map((c) => ({
        key: `${c.namespace}/${c.name}`,
        cells: { phase: c.phase, version: c.spec.kubernetes_version ?? "", replicas: String(c.replicas.desired), "operations in flight": c.operationsInFlight.length ? c.operationsInFlight : "none" },
      })),
      "vcluster snapshots": v.snapshots.snapshots.map((s) => ({ key: s.name, cells: { vcluster: `${s.namespace}/${s.vclusterName}`, status: s.status } })),
    },
  };
}

/** A console table's rows, each as its cells' texts by column heading (none when the table says it is empty). */
function consoleRows(caption: string): Promise<Record<string, string>[]> {
  return table(caption).evaluate((section) => {
    const headers = [...section.querySelectorAll("thead th")].map((th) => th.textContent?.trim() ?? "");
    return [...section.querySelectorAll("tbody tr")].map((tr) =>
      Object.fromEntries([...tr.children].map((td, i) => [headers[i], (td.textContent ?? "").replace(/\s+/g, " ").trim()])),
    );
  });
}

/** How a console table differs from what the plane says it must show. */
function differences(caption: string, rows: Record<string, string>[], expected: RowCheck[]): string[] {
  const keyOf = (row: Record<string, string>) => Object.values(row)[0];
  const out: string[] = [];
  for (const want of expected) {
    const candidates = rows.filter((row) => keyOf(row) === want.key);
    if (candidates.length === 0) out.push(`${caption}: no row ${want.key}`);
    const wrong = (row: Record<string, string>) =>
      Object.entries(want.cells).flatMap(([column, value]) => {
        const text = row[column] ?? "";
        const ok = typeof value === "string" ? text === value : value.every((part) => text.includes(part));
        return ok ? [] : [`${caption} ${want.key}: ${column} shows ${JSON.stringify(text)}, the plane ${JSON.stringify(value)}`];
      });
    if (candidates.length > 0 && candidates.every((row) => wrong(row).length > 0)) out.push(...wrong(candidates[0]));
  }
  if (rows.length !== expected.length) out.push(`${caption}: ${rows.length} rows, the plane has ${expected.length}: ${rows.map(keyOf).join(", ")}`);
  return out;
}

/**
 * Every platform tab shows every object of the plane with its status as the plane's admin views
 * report it (read afresh each time the console is read, until they agree); a screenshot of each
 * tab is taken when `shots` says so. `mayBeEmpty` names the tables the plane may have nothing for;
 * `tabs` limits the check to those tabs.
 */
async function expectConsoleShowsPlane(opts: { shots?: boolean; mayBeEmpty?: string[]; tabs?: string[] } = {}): Promise<void> {
  for (const { tab: tabName, shot: picture } of PLATFORM_TABS.filter((p) => !opts.tabs || opts.tabs.includes(p.tab))) {
    await tab(tabName).click();
    const mismatches = async () => {
      const tables = (await expectedTables(t.plane))[tabName];
      const out: string[] = [];
      for (const [caption, rows] of Object.entries(tables)) {
        if (rows.length === 0 && !opts.mayBeEmpty?.includes(caption)) out.push(`${caption}: the plane has none`);
        out.push(...differences(caption, await consoleRows(caption), rows));
      }
      return out;
    };
    await expect.poll(mismatches, { timeout: 30_000, message: `the ${tabName} tab shows what the plane holds` }).toEqual([]);
    if (opts.shots) await shot(picture);
  }
}

/** What the plane's own views say is in flight on the stack's objects, read every 100 ms until stopped. */
function watchPlane(plane: LocalPlane, names: { cmassh: string; senlin: string; job: string }) {
  const cmassh = new Set<string>();
  const senlin: { action: string; desired: number; statuses: Record<string, number> }[] = [];
  const workflows: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const v = await planeViews(plane).catch((error) => {
        if (running) throw error;
      });
      if (!v) break;
      for (const op of v.cmassh.clusters.find((c) => c.name === names.cmassh)?.operations ?? []) cmassh.add(op.version ? `${op.kind} to ${op.version}` : op.kind);
      const cluster = v.senlin.clusters.find((c) => c.name === names.senlin);
      for (const a of cluster?.actions_in_flight.filter(started) ?? []) {
        const statuses: Record<string, number> = {};
        for (const m of cluster?.members ?? []) statuses[m.status] = (statuses[m.status] ?? 0) + 1;
        const state = { action: a.action, desired: cluster?.desired_capacity ?? 0, statuses };
        if (!senlin.some((s) => JSON.stringify(s) === JSON.stringify(state))) senlin.push(state);
      }
      const wf = v.jobs.jobs.find((j) => j.name === names.job)?.workflow;
      if (wf && wf.current.length + wf.todo.length > 0) {
        const text = `${wf.type} ${wf.state}: ${wf.done.length} done, ${wf.current.length} in progress, ${wf.todo.length} to do`;
        if (!workflows.includes(text)) workflows.push(text);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { cmassh: [...cmassh], senlin, workflows };
    },
  };
}

/**
 * A Senlin rolling update made beside the stack through Senlin's API, as an operator would: a
 * cluster of two nodes under a batch policy of one node per batch, with a webhook receiver, moved
 * to a new profile. Watched on `on`'s Senlin tab, where the first batch shows done and the second
 * waiting out the policy's pause; answers once the update has ended and the tab shows it no more.
 */
async function rollingUpdate(on: Page): Promise<void> {
  const senlin = await senlinRest(t.plane);
  const spec = (image: string) => ({ type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image } });
  await senlin.call("POST", "/v1/profiles", { profile: { name: "roll-v1", spec: spec("cirros") } });
  await senlin.call("POST", "/v1/profiles", { profile: { name: "roll-v2", spec: spec("cirros-v2") } });
  const batch = { type: "senlin.policy.batch", version: "1.0", properties: { min_in_service: 1, max_batch_size: 1, pause_time: 4 } };
  await senlin.call("POST", "/v1/policies", { policy: { name: "one-at-a-time", spec: batch } });
  const created = await senlin.call("POST", "/v1/clusters", { cluster: { name: "rolling", profile_id: "roll-v1", desired_capacity: 2 } });
  expect(await senlin.waitAction(created.location)).toBe("SUCCEEDED");
  const attached = await senlin.call("POST", "/v1/clusters/rolling/actions", { policy_attach: { policy_id: "one-at-a-time" } });
  expect(await senlin.waitAction(attached.location)).toBe("SUCCEEDED");
  const receiver = await senlin.call("POST", "/v1/receivers", { receiver: { name: "grow-rolling", type: "webhook", cluster_id: "rolling", action: "CLUSTER_SCALE_OUT" } });
  expect(receiver.status).toBe(201);
  const update = await senlin.call("PATCH", "/v1/clusters/rolling", { cluster: { profile_id: "roll-v2" } });
  expect(update.status).toBe(202);
  const clusters = table("Senlin clusters", on);
  // One node per batch, a 4 s pause after each: the first batch done, the second waiting.
  await expect.poll(() => clusters.textContent(), { timeout: 60_000, interval: 100 }).toMatch(/rolling update: 1 of 2 batches done/);
  const text = (await clusters.textContent()) ?? "";
  expect(text).toMatch(/batch 1: node-\S+ — done/);
  expect(text).toMatch(/batch 2: node-\S+ — (waiting|updating)/);
  await shot("senlin-rolling-update", on);
  expect(await senlin.waitAction(update.location)).toBe("SUCCEEDED");
  await expect.poll(() => clusters.textContent(), { timeout: 10_000 }).not.toMatch(/rolling update/);
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: the set-up installs Debian's chromium (scripts/setup/chromium.sh)`);
  t = await openAllKindsStack({ timeScale: 1, planeFlags: ["--kubernetes"] });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  await context.addInitScript(WATCH_THE_PAGE);
  page = await openConsole();
});

afterAll(async () => {
  await browser?.close();
  await t?.plane.stop();
});

describe("the web console, read in Chromium during real pulumi ups", () => {
  it("shows every platform's objects with their status as the up creates them, without a reload", async () => {
    up = t.stack.up();
    // The cluster appears while it is being created, and turns RUNNING, on the same page.
    await tab("cma-ssh").click();
    const clusters = table("cma-ssh clusters");
    await expect.poll(() => clusters.textContent(), { timeout: 120_000, interval: 100 }).toMatch(/PROVISIONING/);
    await shot("cmassh-provisioning");
    await up;
    await expect.poll(() => clusters.textContent(), { timeout: 60_000 }).toMatch(/RUNNING/);
    await expectConsoleShowsPlane({ shots: true, mayBeEmpty: ["Senlin receivers"] });
  });

  it("shows operations as they progress: a second up's upgrade, resize and job update, and beside it a Senlin rolling update batch by batch", async () => {
    const before = await planeViews(t.plane);
    const cluster = before.cmassh.clusters[0];
    const senlinCluster = before.senlin.clusters[0];
    const job = before.jobs.jobs[0];
    // Three browser tabs, one per platform, as a person following the run would open them.
    const [cmasshPage, senlinPage, pelotonPage] = await Promise.all(["cmassh", "senlin", "peloton"].map((hash) => openConsole(hash)));
    onTestFinished(() => Promise.all([cmasshPage, senlinPage, pelotonPage].map((p) => p.close())).then(() => undefined));
    const watch = watchPlane(t.plane, { cmassh: cluster.name, senlin: senlinCluster.name, job: job.name });
    const upgrade = `upgrade of cluster ${cluster.name}`;
    const resize = new RegExp(`^CLUSTER_\\w+ of cluster ${senlinCluster.name}$`);
    const rowsOf = (on: Page, caption: string, key: string) =>
      on.evaluate(([region, name]) => ((globalThis as unknown as { __console: Seen }).__console.rows[region] ?? []).filter((row) => row.startsWith(`${name} | `)), [caption, key] as const);
    let plane: Awaited<ReturnType<typeof watch.stop>>;
    try {
      await t.configure({ round: 1 });
      const round1 = t.stack.up();
      const over = round1.then(() => new Promise((resolve) => setTimeout(resolve, 2000)));
      // Each tab's picture is taken as soon as it shows its operation: a progress bar named like
      // `bar`, or a row of `caption` for `key` matching `row`; one never shown is left out, and the
      // checks below say why.
      const shotWhenShown = async (on: Page, name: ConsoleScreenshot, shown: { bar: RegExp } | { caption: string; key: string; row: RegExp }) => {
        const seenOn = on
          .waitForFunction(
            ([source, caption, key]) => {
              const c = (globalThis as unknown as { __console: Seen }).__console;
              const pattern = new RegExp(source);
              return caption ? (c.rows[caption] ?? []).some((row) => row.startsWith(`${key} | `) && pattern.test(row)) : Object.keys(c.bars).some((l) => pattern.test(l));
            },
            "bar" in shown ? ([shown.bar.source, "", ""] as const) : ([shown.row.source, shown.caption, shown.key] as const),
            { polling: 50, timeout: 120_000 },
          )
          .then(() => true)
          .catch(() => false);
        if (await Promise.race([seenOn, over.then(() => false)])) await shot(name, on);
      };
      await Promise.all([
        shotWhenShown(cmasshPage, "cmassh-upgrade", { bar: new RegExp(`^${upgrade}$`) }),
        shotWhenShown(senlinPage, "senlin-resize", { bar: resize }),
        shotWhenShown(pelotonPage, "peloton-update", { caption: "Peloton jobs", key: job.name, row: /UPDATE \w+: \d+ done, [1-9]\d* in progress/ }),
        rollingUpdate(senlinPage),
        round1,
      ]);
    } finally {
      plane = await watch.stop();
    }
    const after = await planeViews(t.plane);

    // The upgrade to the version the plane reached, its bar moving on while it ran.
    const version = after.cmassh.clusters.find((c) => c.name === cluster.name)!.k8sVersion;
    expect(version).not.toBe(cluster.k8sVersion);
    expect(plane.cmassh).toContain(`upgrade to ${version}`);
    expect((await rowsOf(cmasshPage, "cma-ssh clusters", cluster.name)).some((row) => row.includes(`upgrade to ${version}: `))).toBe(true);
    const upgradeBar = (await seen(cmasshPage)).bars[upgrade] ?? [];
    expect(upgradeBar.length, `the upgrade's bar showed ${upgradeBar.join(", ")}`).toBeGreaterThanOrEqual(2);
    expect(upgradeBar[0]).toBeLessThan(100);
    for (let i = 1; i < upgradeBar.length; i++) expect(upgradeBar[i]).toBeGreaterThan(upgradeBar[i - 1]);

    // The resize: the members in place against the desired capacity, as the plane had them while it ran.
    expect(plane.senlin.length).toBeGreaterThan(0);
    const senlinRows = await rowsOf(senlinPage, "Senlin clusters", senlinCluster.name);
    const senlinBars = (await seen(senlinPage)).bars;
    const resizeShown = plane.senlin.filter(({ action, desired, statuses }) => {
      const active = statuses.ACTIVE ?? 0;
      const detail = [`${action} to ${desired} node`, `: ${active} of ${desired} active`, ...Object.entries(statuses).flatMap(([s, n]) => (s === "ACTIVE" ? [] : [`, ${n} ${s.toLowerCase()}`]))];
      const value = Math.round((active / Math.max(1, desired + (statuses.DELETING ?? 0))) * 100);
      return senlinRows.some((row) => detail.every((part) => row.includes(part))) && (senlinBars[`${action} of cluster ${senlinCluster.name}`] ?? []).includes(value);
    });
    expect(resizeShown, `the plane's resize states ${JSON.stringify(plane.senlin)}`).not.toEqual([]);
    expect(after.senlin.clusters.find((c) => c.name === senlinCluster.name)!.desired_capacity).toBeGreaterThan(senlinCluster.desired_capacity);

    // The job's update instance by instance: at least two of the plane's steps.
    const jobRows = await rowsOf(pelotonPage, "Peloton jobs", job.name);
    const steps = plane.workflows.filter((step) => jobRows.some((row) => row.includes(step)));
    expect(steps.length, `the plane's steps ${plane.workflows.join(" | ")}`).toBeGreaterThanOrEqual(2);
    expect(steps.every((step) => step.startsWith("UPDATE "))).toBe(true);

    // Then every object with its status, the rolling update's receiver, profiles and policy included.
    await expectConsoleShowsPlane();
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

  it("took every screenshot docs/local-plane.md shows", () => {
    expect([...taken].sort()).toEqual([...CONSOLE_SCREENSHOTS].sort());
  });
});
