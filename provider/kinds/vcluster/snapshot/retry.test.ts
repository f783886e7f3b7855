import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { PartialStateError } from "../../../core/contract";
import { testHandler, writesSince } from "../../testing";
import { vclusterClient } from "../common";
import { vclusterSnapshot } from "./kind";

const snapshotHandler = testHandler(vclusterSnapshot);

type Props = Record<string, unknown>;
afterAll(removeDataDirs);

const ref = { name: "dev", namespace: "team-a" };

// The plane runs on a clock that stands still until the test moves it: a snapshot stays CREATING
// while the create's short timeout runs out, then becomes READY (or FAILED) when the clock moves.
let t: TestPlane;
let config: ConfigReader;

beforeEach(async () => {
  t = await startTestPlane();
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await snapshotHandler.configure(config);
  await (await vclusterClient(config)).createVCluster({ ...ref, spec: {} });
  t.clock.advance(60_000);
});
afterEach(async () => {
  (await vclusterClient(config)).close();
  await t.close();
});

/** A create that times out before READY: the error the engine records as partial state. */
async function timedOutCreate(): Promise<{ inputs: Props; error: PartialStateError }> {
  const { inputs, failures } = await snapshotHandler.check({}, { __provider: "p", owner: "0123456789abcdef", resourceName: "nightly", vclusterName: "dev", namespace: "team-a", timeouts: { create: "1s" } });
  expect(failures).toEqual([]);
  const error = await snapshotHandler.create(inputs).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PartialStateError);
  return { inputs, error: error as PartialStateError };
}

describe("vcluster:Snapshot: the engine's retry of a create recorded before READY", () => {
  it("converges: the update with no changed field waits for READY and records it, sending nothing", async () => {
    const { inputs, error } = await timedOutCreate();
    expect([error.properties.status, error.message]).toEqual(["CREATING", expect.stringContaining("run `pulumi up` again")]);
    // The next `up`: Diff finds no change, the engine calls update with the recorded state.
    expect(await snapshotHandler.diff(error.id, error.properties, inputs)).toMatchObject({ changes: false });
    t.clock.advance(60_000);
    const { outs } = await snapshotHandler.update(error.id, error.properties, inputs);
    expect([outs.status, outs.snapshotId]).toEqual(["READY", error.id]);
    expect(await writesSince(t, 0)).toEqual(["vcluster:CreateVCluster", "vcluster:SnapshotVCluster"]);
  });

  it("fails saying what to do when the snapshot FAILED or is gone: waiting cannot make it READY", async () => {
    await t.http("POST", "/_local/faults", { api: "vcluster", operation: "SnapshotVCluster", action: "fail-operation" });
    const { inputs, error } = await timedOutCreate();
    t.clock.advance(60_000);
    await expect(snapshotHandler.update(error.id, error.properties, inputs)).rejects.toThrow(/FAILED; replace it \(`pulumi up --replace <its URN>`\)/);
    await (await vclusterClient(config)).deleteSnapshot(error.id, { force: true });
    await expect(snapshotHandler.update(error.id, error.properties, inputs)).rejects.toThrow(/no longer exists; run `pulumi refresh`/);
  });
});
