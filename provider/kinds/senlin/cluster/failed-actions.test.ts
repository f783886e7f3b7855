import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { SenlinClient } from "../../../clients/senlin/client";
import type { ConfigReader } from "../../../core/config";
import { lastSeq, partialOf, planeConfig, planeSenlin, testHandler, writesSince } from "../../testing";
import { senlinCluster } from "./kind";

const clusterHandler = testHandler(senlinCluster);

// A Senlin cluster whose create or resize action ends FAILED: the step fails with the action's
// reason, the cluster stays recorded as Senlin has it, and the next run neither creates a second
// cluster nor forgets the resize.

type Props = Record<string, unknown>;

let t: TestPlane;
let config: ConfigReader;
let senlin: SenlinClient;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = planeConfig(t.plane.url);
  await clusterHandler.configure(config);
  senlin = planeSenlin(t);
  await senlin.createProfile("small", { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } });
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

async function checked(owner: string, patch: Props): Promise<Props> {
  const { inputs, failures } = await clusterHandler.check({}, { __provider: "p", owner, resourceName: "web", profile: "small", ...patch });
  expect(failures).toEqual([]);
  return inputs;
}

async function failOperation(operation: string, message: string): Promise<void> {
  expect((await t.http("POST", "/_local/faults", { api: "senlin", operation, action: "fail-operation", message })).status).toBe(200);
}

describe("senlin:Cluster whose action ends FAILED", () => {
  it("records a cluster whose create FAILED, fails the next run's update on its ERROR, creating nothing more, and deletes it", async () => {
    const inputs = await checked("1111111111111111", { desiredCapacity: 2 });
    await failOperation("CreateCluster", "quota exceeded for instances");
    const since = await lastSeq(t);
    const err = await partialOf(clusterHandler.create(inputs));
    expect(err.message).toMatch(/CLUSTER_CREATE ended FAILED: quota exceeded for instances/);
    expect(err.reasons).toEqual([expect.stringMatching(/CLUSTER_CREATE ended FAILED: quota exceeded for instances/)]);
    expect(err.properties).toMatchObject({ status: "ERROR" });
    expect((await senlin.getCluster(err.id)).status).toBe("ERROR");

    // The engine's next run updates the recorded cluster: it reads the same truth and sends nothing.
    await expect(clusterHandler.update(err.id, err.properties, inputs)).rejects.toThrow(/is in ERROR/);
    expect(await writesSince(t, since)).toEqual(["senlin:CreateCluster"]);

    await clusterHandler.delete(err.id, err.properties);
    await expect(senlin.getCluster(err.id)).rejects.toMatchObject({ code: "NotFound" });
  });

  it("fails a resize whose action FAILED with the action's reason, keeps the size last reached, and resizes again on the next run", async () => {
    const inputs = await checked("2222222222222222", { desiredCapacity: 1 });
    const { id, outs } = await clusterHandler.create(inputs);
    await failOperation("ResizeCluster", "no valid host was found for 3 servers");
    const bigger = await checked("2222222222222222", { desiredCapacity: 3 });
    const err = await partialOf(clusterHandler.update(id, { ...inputs, ...outs }, bigger));
    expect(err.message).toMatch(
      new RegExp(`^waiting for ResizeCluster cluster "${id}" \\(action [0-9a-f-]+\\) to succeed: TERMINAL_STATE: CLUSTER_RESIZE ended FAILED: no valid host was found for 3 servers`),
    );
    expect([err.properties.desiredCapacity, err.properties.status]).toEqual([1, "ERROR"]);

    // The state keeps size 1, so the next run plans the resize again; the fault is spent and it lands.
    expect(await clusterHandler.diff(id, err.properties, bigger)).toMatchObject({ changes: true, replaces: [] });
    const since = await lastSeq(t);
    const fixed = await clusterHandler.update(id, err.properties, bigger);
    expect(fixed.outs).toMatchObject({ desiredCapacity: 3 });
    expect(await writesSince(t, since)).toEqual(["senlin:ResizeCluster"]);
    expect((await senlin.getCluster(id)).desiredCapacity).toBe(3);
  });
});
