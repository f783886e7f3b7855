import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { consoleAssetsDir } from "./console-routes";

afterAll(removeDataDirs);

let t: TestPlane | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

beforeAll(() => {
  // The assets are built by `npm run build`; a test run straight from the sources builds them here.
  if (!consoleAssetsDir()) execFileSync(process.execPath, [path.join(__dirname, "build.mjs")], { cwd: path.resolve(__dirname, "..", "..") });
}, 60_000);

/** Reads server-sent events from the console's stream until `enough` says stop. */
async function readEvents(url: string, enough: (events: { event: string; data: unknown }[]) => boolean): Promise<{ event: string; data: unknown }[]> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const events: { event: string; data: unknown }[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
      end = buffer.indexOf("\n\n");
    }
    if (enough(events)) break;
  }
  controller.abort();
  return events;
}

describe("the web console's routes", () => {
  it("serves the page at / to a browser, with a policy allowing requests to the plane only", async () => {
    t = await startTestPlane();
    const response = await fetch(`${t.plane.url}/`, { headers: { Accept: "text/html,application/xhtml+xml" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'; connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${t.plane.url}/console/app.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });

  it("leaves / to Senlin's version document for a client asking for JSON", async () => {
    t = await startTestPlane();
    const response = await t.http("GET", "/", undefined, { Accept: "application/json" });
    expect(response.status).toBe(300);
    expect(response.body).toMatchObject({ versions: [{ id: "1.0" }] });
  });

  it("is off with console: false", async () => {
    t = await startTestPlane({ console: false });
    expect((await fetch(`${t.plane.url}/console/app.js`)).status).toBe(404);
    expect((await fetch(`${t.plane.url}/_local/console/state`)).status).toBe(404);
  });

  it("streams the state when it changes and every new audit entry", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "before" });
    const url = `${t.plane.url}/_local/console/events`;
    const plane = t;
    let created = false;
    const events = await readEvents(url, (seen) => {
      if (!created && seen.some((e) => e.event === "state")) {
        created = true;
        void plane.cmassh.createCluster({ name: "after" });
      }
      const names = seen
        .filter((e) => e.event === "state")
        .flatMap((e) => ((e.data as { views: Record<string, { clusters: { name: string }[] }> }).views["/_local/cmassh/clusters"]?.clusters ?? []).map((c) => c.name));
      return names.includes("after") && seen.some((e) => e.event === "audit");
    });
    expect(events[0].event).toBe("hello");
    const tail = events.find((e) => e.event === "audit-reset")!.data as { operation: string }[];
    expect(tail.map((e) => e.operation)).toEqual(["CreateCluster"]);
    const later = events.filter((e) => e.event === "audit").flatMap((e) => e.data as { operation: string; target: string }[]);
    expect(later.map((e) => `${e.operation} ${e.target}`)).toContain("CreateCluster after");
  });

  it("answers a kubeconfig download for a provisioned cluster, and refuses others naming why", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "c1" });
    await t.cmassh.getCluster({ name: "c1" });
    const response = await fetch(`${t.plane.url}/_local/console/kubeconfig?api=cmassh&name=c1`);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="c1.kubeconfig"');
    expect(await response.text()).toContain("current-context: c1-admin@c1");
    expect((await t.http("GET", "/_local/console/kubeconfig?api=cmassh&name=nope")).body).toEqual({ error: 'cluster "nope" has no kubeconfig: it does not exist or is not provisioned' });
    expect((await t.http("GET", "/_local/console/kubeconfig?api=senlin&name=x")).status).toBe(400);
  });
});
