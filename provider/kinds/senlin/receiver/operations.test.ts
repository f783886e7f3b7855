import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { SenlinClient } from "../../../clients/senlin/client";
import type { ConfigReader } from "../../../core/config";
import { callsSince, importFailures, importRoundTrip, lastSeq, planeConfig, planeSenlin, testHandler, testImporter, testLookup, writesSince } from "../../testing";
import { senlinReceiver } from "./kind";

// senlin:Receiver against the local Senlin: create, updates in place, replacement, delete, import,
// adoption after a lost answer, and the webhook it makes scaling the cluster. One plane for the file.

const receiverHandler = testHandler(senlinReceiver);
const receiverImport = testImporter(senlinReceiver);

type Props = Record<string, unknown>;

const PROFILE_SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
const URL_SHAPE = /^http:\/\/127\.0\.0\.1:\d+\/v1\/webhooks\/[0-9a-f-]{36}\/trigger\?V=2/;

let t: TestPlane;
let config: ConfigReader;
let senlin: SenlinClient;
let clusterA: string;
let clusterB: string;

async function makeCluster(name: string): Promise<string> {
  const profile = await senlin.createProfile(`${name}-profile`, PROFILE_SPEC);
  const { value } = await senlin.createCluster({ name, profileId: profile.id, minSize: 0, desiredCapacity: 1, maxSize: 10 });
  // The plane runs at time scale 0: the create action ends at once; a few reads see it end.
  for (let i = 0; i < 50 && (await senlin.getCluster(value.id)).status !== "ACTIVE"; i++) await new Promise((r) => setTimeout(r, 20));
  expect((await senlin.getCluster(value.id)).status).toBe("ACTIVE");
  return value.id;
}

beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = planeConfig(t.plane.url);
  await receiverHandler.configure(config);
  senlin = planeSenlin(t);
  clusterA = await makeCluster("web-a");
  clusterB = await makeCluster("web-b");
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

const checked = async (raw: Props, olds: Props = {}) => {
  const { inputs, failures } = await receiverHandler.check(olds, { __provider: "p", ...raw });
  expect(failures).toEqual([]);
  return inputs;
};

describe("senlin:Receiver on the local Senlin", () => {
  it("creates a webhook receiver whose URL is its output, changes name, action and params in place with one PATCH, and deletes it", async () => {
    const inputs = await checked({ owner: "1111111111111111", resourceName: "up", cluster: clusterA, action: "CLUSTER_SCALE_OUT", params: { count: 1 } });
    const since = await lastSeq(t);
    const { id, outs } = await receiverHandler.create(inputs);
    expect(await writesSince(t, since)).toEqual(["senlin:CreateReceiver"]);
    expect(outs.alarmUrl).toMatch(URL_SHAPE);
    expect(outs.alarmUrl).toBe(`${t.plane.url}/v1/webhooks/${id}/trigger?V=2&count=1`);
    expect(await senlin.getReceiver(id)).toMatchObject({ name: inputs.name, type: "webhook", clusterId: clusterA, action: "CLUSTER_SCALE_OUT", params: { count: 1 } });

    const news = await checked({ ...inputs, name: "scale-in", action: "CLUSTER_SCALE_IN", params: { count: 2 } }, inputs);
    const before = await lastSeq(t);
    const updated = await receiverHandler.update(id, { ...inputs, ...outs }, news);
    expect(await writesSince(t, before)).toEqual(["senlin:UpdateReceiver"]);
    // Senlin keeps the URL: the receiver runs the new action and params through it.
    expect(updated.outs).toMatchObject({ alarmUrl: outs.alarmUrl });
    expect(await senlin.getReceiver(id)).toMatchObject({ name: "scale-in", action: "CLUSTER_SCALE_IN", params: { count: 2 } });

    // Params removed from the program: an empty params is sent, not nothing.
    const emptied = await checked({ ...news, params: undefined }, news);
    await receiverHandler.update(id, { ...news, ...outs }, emptied);
    expect((await senlin.getReceiver(id)).params).toEqual({});

    await receiverHandler.delete(id, emptied);
    await expect(senlin.getReceiver(id)).rejects.toThrow(/could not be found/);
    // Gone already: a second delete succeeds, and a read says it is gone.
    await receiverHandler.delete(id, emptied);
    expect(await receiverHandler.read(id, { ...emptied, ...outs })).toEqual({ id: "", props: {} });
  });

  it("replaces the receiver for another cluster: a new derived name, a new URL", async () => {
    const olds = await checked({ owner: "2222222222222222", resourceName: "hook", cluster: clusterA, action: "CLUSTER_SCALE_OUT", deleteBeforeReplace: true });
    const old = await receiverHandler.create(olds);
    const news = await checked({ ...olds, name: undefined, autoNamed: undefined, cluster: clusterB }, olds);
    expect(await receiverHandler.diff(old.id, { ...olds, ...old.outs }, news)).toMatchObject({ changes: true, replaces: ["cluster"] });
    expect(news.name).not.toBe(olds.name);
    await receiverHandler.delete(old.id, { ...olds, ...old.outs });
    const made = await receiverHandler.create(news);
    expect(made.outs.alarmUrl).not.toBe(old.outs.alarmUrl);
    expect(await senlin.getReceiver(made.id)).toMatchObject({ clusterId: clusterB, name: news.name });
    await receiverHandler.delete(made.id, news);
  });

  it("a create whose answer is lost after Senlin made the receiver adopts it: exactly one receiver", async () => {
    const inputs = await checked({ owner: "3333333333333333", resourceName: "lost", cluster: clusterA, action: "CLUSTER_SCALE_OUT" });
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "CreateReceiver", action: "reset", stage: "response" });
    const { id } = await receiverHandler.create(inputs);
    // The fault was used: the answer really was lost.
    expect((await t.http("GET", "/_local/faults")).body).toMatchObject({ faults: [] });
    expect((await senlin.listReceivers({ filters: { name: inputs.name as string } })).map((r) => r.id)).toEqual([id]);
    await receiverHandler.delete(id, inputs);
  });

  it("adopts the receiver of its derived name an interrupted run left, and refuses one of a chosen name", async () => {
    const inputs = await checked({ owner: "4444444444444444", resourceName: "left", cluster: clusterA, action: "CLUSTER_SCALE_OUT" });
    const left = await senlin.createReceiver({ name: inputs.name as string, type: "webhook", clusterId: clusterA, action: "CLUSTER_SCALE_OUT" });
    const since = await lastSeq(t);
    expect((await receiverHandler.create(inputs)).id).toBe(left.id);
    expect(await writesSince(t, since)).toEqual([]);

    const chosen = await checked({ owner: "5555555555555555", resourceName: "mine", name: "shared-hook", cluster: clusterA, action: "CLUSTER_SCALE_OUT" });
    const someone = await senlin.createReceiver({ name: "shared-hook", type: "webhook", clusterId: clusterA, action: "CLUSTER_SCALE_IN" });
    await expect(receiverHandler.create(chosen)).rejects.toThrow(
      `CreateReceiver receiver "shared-hook": EXISTS: a webhook receiver named "shared-hook" already exists on cluster ${clusterA} and this stack did not create it`,
    );
    // The same chosen name on another cluster is another receiver.
    const elsewhere = await receiverHandler.create(await checked({ ...chosen, cluster: clusterB }));
    expect(elsewhere.id).not.toBe(someone.id);
    for (const id of [left.id, someone.id, elsewhere.id]) await senlin.deleteReceiver(id);
  });

  it("imports by id, every input reported, and fails the import clearly otherwise", async () => {
    const inputs = await checked({ owner: "6666666666666666", resourceName: "imp", name: "imported-hook", cluster: clusterA, action: "CLUSTER_RESIZE", params: { adjustment_type: "CHANGE_IN_CAPACITY", number: 1 } });
    const { id } = await receiverHandler.create(inputs);
    const result = await importRoundTrip({ t, config, handler: receiverHandler, importer: receiverImport, id, created: inputs });
    expect(result.props.alarmUrl).toBe(`${t.plane.url}/v1/webhooks/${id}/trigger?V=2&adjustment_type=CHANGE_IN_CAPACITY&number=1`);
    // The lookup reads the same object with one call, writing nothing.
    const looked = await testLookup(senlinReceiver, t, config).run("getReceiver", { id });
    expect(looked.calls).toEqual(["senlin:GetReceiver"]);
    expect(looked.result).toMatchObject({ id, name: "imported-hook", cluster: clusterA, action: "CLUSTER_RESIZE", type: "webhook", alarmUrl: result.props.alarmUrl });
    await receiverHandler.delete(id, inputs);
    await importFailures({ t, config, handler: receiverHandler, importer: receiverImport }, "imported-hook", "00000000-0000-4000-8000-000000000000");
  });

  it("a POST to the URL, without a token, scales the cluster out by the receiver's count: the audit shows the trigger and the action", async () => {
    const inputs = await checked({ owner: "7777777777777777", resourceName: "burst", cluster: clusterB, action: "CLUSTER_SCALE_OUT", params: { count: 2 } });
    const { id, outs } = await receiverHandler.create(inputs);
    const size = (await senlin.getCluster(clusterB)).desiredCapacity;
    const since = await lastSeq(t);
    const response = await fetch(String(outs.alarmUrl), { method: "POST" });
    expect(response.status).toBe(202);
    const { action } = (await response.json()) as { action: string };
    expect(await callsSince(t, since)).toEqual(["senlin:TriggerWebhook"]);
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { seq: number; operation: string; target: string; code: string }[] };
    expect(entries.filter((e) => e.seq > since)).toMatchObject([{ operation: "TriggerWebhook", target: id, code: "OK" }]);
    const { actions } = (await t.http("GET", "/_local/senlin/actions")).body as { actions: { id: string; action: string; target: string; inputs: Props }[] };
    expect(actions.find((a) => a.id === action)).toMatchObject({ action: "CLUSTER_SCALE_OUT", target: clusterB, inputs: { count: 2 } });
    await expect.poll(async () => (await senlin.getCluster(clusterB)).desiredCapacity).toBe(size + 2);
    await receiverHandler.delete(id, inputs);
  });
});
