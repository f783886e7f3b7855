import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import { createSenlinClient, type SenlinClient } from "../../../clients/senlin/client";
import type { ConfigReader } from "../../../core/config";
import { lastSeq, testHandler, writesSince } from "../../testing";
import { senlinCluster } from "./kind";

// A cluster deleted outside the stack: refresh reads it as gone (the engine then drops it from the
// state, tested once per engine end to end), and the next create makes it again, policy and all.

const clusterHandler = testHandler(senlinCluster);
const credentials = { username: "admin", password: "admin", projectName: "admin" };

let t: TestPlane;
let senlin: SenlinClient;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  const settings: Record<string, string> = { "clusterform:senlinUsername": "admin", "clusterform:senlinPassword": "admin", "clusterform:senlinProjectName": "admin" };
  const config: ConfigReader = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : settings[key]) };
  await clusterHandler.configure(config);
  senlin = createSenlinClient({ credentials: { authUrl: `${t.plane.url}/v3`, ...credentials } });
  await senlin.createProfile("small", { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } });
  await senlin.createPolicy("deletion", { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } });
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

interface ClusterView {
  id: string;
  name: string;
  status: string;
  nodes: string[];
  bindings: unknown[];
}

async function clusters(): Promise<ClusterView[]> {
  return ((await t.http("GET", "/_local/senlin/clusters")).body as { clusters: ClusterView[] }).clusters;
}

describe("senlin:Cluster deleted outside the stack", () => {
  it("reads as gone with no write, and a create makes it again with its policy attached", async () => {
    const raw = { __provider: "p", owner: "0123456789abcdef", resourceName: "web", profile: "small", minSize: 1, desiredCapacity: 2, maxSize: 4, policies: [{ policy: "deletion" }] };
    const inputs = (await clusterHandler.check({}, raw)).inputs;
    const created = await clusterHandler.create(inputs);
    // Read right after create answers what create recorded: a refresh changes nothing.
    expect(await clusterHandler.read(created.id, created.outs)).toEqual({ id: created.id, props: created.outs });

    // An operator detaches the policy and deletes the cluster.
    await senlin.detachPolicy(created.id, "deletion");
    await senlin.deleteCluster(created.id);
    await expect.poll(async () => (await clusters()).length).toBe(0);

    const since = await lastSeq(t);
    expect(await clusterHandler.read(created.id, created.outs)).toEqual({ id: "", props: {} });
    expect(await writesSince(t, since)).toEqual([]);

    const again = await clusterHandler.create(inputs);
    expect(again.id).not.toBe(created.id);
    expect(again.outs).toMatchObject({ name: created.outs.name, status: "ACTIVE", desiredCapacity: 2 });
    expect(await writesSince(t, since)).toEqual(["senlin:CreateCluster", "senlin:AttachClusterPolicy"]);
    expect((await clusters()).map((c) => [c.id, c.name, c.status, c.nodes.length, c.bindings.length])).toEqual([[again.id, created.outs.name, "ACTIVE", 2, 1]]);
  });
});
