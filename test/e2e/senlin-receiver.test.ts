import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps } from "../harness/engine";
import { openSenlinStack, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

// senlin.Receiver through the real engine (dynamic SDK, program `senlin-receiver`: a cluster and a
// webhook receiver on it): the URL a secret in the stored state and the engine's output, a POST to
// it scaling the cluster, new params in place through the same URL, destroy.

interface ReceiverView {
  id: string;
  cluster_id: string;
  action: string;
  params: Record<string, unknown>;
}

describe("senlin receiver: a webhook that scales the cluster, through the engine", () => {
  let t: SenlinStack;
  let url = "";

  const receivers = async () => (await t.plane.admin<{ receivers: ReceiverView[] }>("/_local/senlin/receivers")).receivers;
  const capacity = async () => (await senlinClusters(t.plane))[0].desired_capacity;
  /** POSTs to the URL without a token, as an alarm does, and waits for the action it started. */
  const trigger = async () => {
    const response = await fetch(url, { method: "POST" });
    expect(response.status).toBe(202);
    expect(await t.rest.waitAction((response.headers.get("location") ?? "").split("/").pop() ?? "")).toBe("SUCCEEDED");
  };

  beforeAll(async () => {
    t = await openSenlinStack({ program: "senlin-receiver", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates the receiver on the cluster; its URL is an output, kept secret in the stored state and the engine's output", async () => {
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create hook", "create main"]);
    const [receiver] = await receivers();
    expect(receiver).toMatchObject({ cluster_id: result.outputs.clusterId, action: "CLUSTER_SCALE_OUT", params: { count: 1 } });
    url = String(result.outputs.alarmUrl);
    expect(url).toBe(`${t.plane.url}/v1/webhooks/${receiver.id}/trigger?V=2&count=1`);
    expect(result.stdout).not.toContain(url);
    expect(await t.stack.storedState()).not.toContain(url);
    expect(senlinMutations(await t.plane.audit(t.seeded))).toEqual([expect.stringMatching(/^CreateCluster main-/), expect.stringMatching(/^CreateReceiver hook-[0-9a-f]{7}$/)]);
  });

  it("a POST to the URL scales the cluster out by the receiver's count", async () => {
    const before = await capacity();
    await trigger();
    expect(await capacity()).toBe(before + 1);
  });

  it("changes the params in place with one PATCH: the URL stays, and a POST to it runs the new count", async () => {
    await t.configure({ params: { count: 2 } });
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["update hook"]);
    expect(result.outputs.alarmUrl).toBe(url);
    const [receiver] = await receivers();
    expect(receiver.params).toEqual({ count: 2 });
    const since = await t.plane.lastSeq();
    const before = await capacity();
    await trigger();
    expect(await capacity()).toBe(before + 2);
    expect(senlinMutations(await t.plane.audit(since))).toEqual([`TriggerWebhook ${receiver.id}`]);
  });

  it("destroys the receiver and the cluster: the URL stops working", async () => {
    await t.stack.destroy();
    expect(await receivers()).toEqual([]);
    expect((await fetch(url, { method: "POST" })).status).toBe(404);
  });
});
