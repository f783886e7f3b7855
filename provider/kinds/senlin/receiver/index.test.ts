import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { planUpdate } from "../../../core/plan/operation";
import { testHandler } from "../../testing";
import { senlinReceiver } from "./kind";
import { RECEIVER_ACTIONS, receiverKind } from "./schema";

const receiverHandler = testHandler(senlinReceiver);

type Props = Record<string, unknown>;

const CLUSTER = "4a1e2b3c-5d6e-4f70-8a9b-0c1d2e3f4a5b";
const OTHER = "5b2f3c4d-6e7f-4081-9bac-1d2e3f4a5b6c";
const raw: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "up", cluster: CLUSTER, action: "CLUSTER_SCALE_OUT", params: { count: 1 } };
const ACTIONS = RECEIVER_ACTIONS.join(", ");

describe("senlin receiverHandler.check", () => {
  it("derives a name from the owner and the cluster, and defaults the type to webhook", async () => {
    const { inputs, failures } = await receiverHandler.check({}, raw);
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ name: expect.stringMatching(/^up-[0-9a-f]{7}$/), autoNamed: true, type: "webhook" });
    expect((await receiverHandler.check({}, { ...raw, owner: "fedcba9876543210" })).inputs.name).not.toBe(inputs.name);
    expect((await receiverHandler.check({}, { ...raw, cluster: OTHER })).inputs.name).not.toBe(inputs.name);
    // An action or params of its own do not rename it: they change in place.
    expect((await receiverHandler.check({}, { ...raw, action: "CLUSTER_SCALE_IN", params: {} })).inputs.name).toBe(inputs.name);
  });

  it("prefixes a derived name that would start with a digit, and keeps a chosen one", async () => {
    expect((await receiverHandler.check({}, { ...raw, resourceName: "1st" })).inputs.name).toMatch(/^receiver-1st-[0-9a-f]{7}$/);
    expect((await receiverHandler.check({}, { ...raw, name: "scale-out" })).inputs).toMatchObject({ name: "scale-out", autoNamed: false });
  });

  it.each(RECEIVER_ACTIONS)("takes the action %s", async (action) => {
    expect((await receiverHandler.check({}, { ...raw, action })).failures).toEqual([]);
  });

  it("lets unknown values through in a preview: the cluster's id before the cluster exists", async () => {
    const { inputs, failures } = await receiverHandler.check({}, { ...raw, cluster: UNKNOWN });
    expect(failures).toEqual([]);
    expect(inputs.name).toBe(UNKNOWN);
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a missing cluster", { cluster: undefined }, [{ property: "cluster", reason: "cluster is required" }]],
    ["a cluster given by name", { cluster: "web" }, [{ property: "cluster", reason: 'cluster must be a Senlin cluster id (a UUID: the senlin Cluster resource\'s `id`), got "web"' }]],
    ["a missing action", { action: undefined }, [{ property: "action", reason: "action is required" }]],
    ["CLUSTER_CREATE, which Senlin refuses", { action: "CLUSTER_CREATE" }, [{ property: "action", reason: `action must be a cluster action a receiver may run: ${ACTIONS} (Senlin refuses CLUSTER_CREATE), got "CLUSTER_CREATE"` }]],
    ["an action Senlin does not know", { action: "scale_out" }, [{ property: "action", reason: `action must be a cluster action a receiver may run: ${ACTIONS} (Senlin refuses CLUSTER_CREATE), got "scale_out"` }]],
    ["params given as a list", { params: [1] }, [{ property: "params", reason: "params must be an object of keys to JSON values, got [1]" }]],
    [
      "a message receiver",
      { type: "message" },
      [{ property: "type", reason: 'type must be "webhook" (Senlin\'s "message" receivers, a Zaqar queue cluster actions are posted to, are not supported: they give no URL and need Zaqar), got "message"' }],
    ],
    ["a name with a space", { name: "scale out" }, [{ property: "name", reason: `name must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-', got "scale out"` }]],
    ["metadata, which receivers do not have", { metadata: {} }, [{ property: "metadata", reason: "metadata is not a known field" }]],
    ["a channel, which is Senlin's to make", { channel: { alarm_url: "http://x" } }, [{ property: "channel", reason: "channel is not a known field" }]],
  ])("rejects %s", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await receiverHandler.check({}, news)).toEqual({ inputs: news, failures });
  });

  it("marks the webhook URL secret, and no input", () => {
    expect(receiverKind.outputs.alarmUrl.secret).toBe(true);
    expect(Object.entries(receiverKind.inputs).filter(([, f]) => f.secret).map(([k]) => k)).toEqual([]);
  });
});

describe("senlin receiverHandler.diff and its plan", () => {
  it.each<[string, Props, Props]>([
    ["the name in place", { name: "renamed" }, { changes: true, replaces: [] }],
    ["the action in place", { action: "CLUSTER_SCALE_IN" }, { changes: true, replaces: [] }],
    ["the params in place", { params: { count: 2 } }, { changes: true, replaces: [] }],
    ["the params emptied in place", { params: undefined }, { changes: true, replaces: [] }],
    ["another cluster by replacement (a new derived name)", { cluster: OTHER }, { changes: true, replaces: ["cluster"], deleteBeforeReplace: true }],
    ["timeouts alone, without a change", { timeouts: { update: "1m" } }, { changes: false, replaces: [] }],
  ])("changes %s", async (_, patch, expected) => {
    const { inputs: olds } = await receiverHandler.check({}, raw);
    const { inputs: news } = await receiverHandler.check(olds, { ...raw, ...patch });
    expect(await receiverHandler.diff("rid", { ...olds, alarmUrl: "http://senlin/v1/webhooks/rid/trigger?V=2" }, news)).toMatchObject(expected);
  });

  it("plans one PATCH of exactly the changed fields, the URL kept", async () => {
    const { inputs: olds } = await receiverHandler.check({}, raw);
    const { inputs: news } = await receiverHandler.check(olds, { ...raw, action: "CLUSTER_RESIZE", params: { adjustment_type: "CHANGE_IN_CAPACITY", number: 2 } });
    const plan = planUpdate(senlinReceiver.policies, senlinReceiver.planner, olds, news, "rid");
    expect(plan.operations).toEqual([
      {
        call: "UpdateReceiver",
        target: "rid",
        args: { action: "CLUSTER_RESIZE", params: { adjustment_type: "CHANGE_IN_CAPACITY", number: 2 } },
        summary: "updates the receiver's action and params (its URL stays the same)",
      },
    ]);
    expect(planUpdate(senlinReceiver.policies, senlinReceiver.planner, olds, olds, "rid").operations).toEqual([]);
  });

  it("plans the create and the delete with their calls", () => {
    expect(senlinReceiver.planner.create({ name: "up-1234567", cluster: CLUSTER, action: "CLUSTER_SCALE_OUT" })).toEqual([
      { call: "CreateReceiver", args: { name: "up-1234567", cluster: CLUSTER, action: "CLUSTER_SCALE_OUT" }, summary: "creates webhook receiver up-1234567", disruptions: ["unknown-values"] },
    ]);
    expect(senlinReceiver.planner.delete({}, "rid")).toEqual([{ call: "DeleteReceiver", target: "rid", args: {}, summary: "deletes the receiver: its URL stops working", disruptions: ["deletes"] }]);
  });
});
