import { afterAll, beforeAll, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { cancelAllWaits } from "../../../core/retry";
import { callsSince, lastSeq, testHandler } from "../../testing";
import { vclusterVCluster } from "./kind";

// A vcluster's create waits on a WatchVCluster stream, not in a sleep: the engine's Cancel must end
// the stream too. Cancel ends every wait of the process for good, so this file has a process of its own.

let t: TestPlane;
let config: ConfigReader;
beforeAll(async () => {
  // Time scale 1 on a clock that stands still: the vcluster stays CREATING until something ends the wait.
  t = await startTestPlane({ timeScale: 1 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
});
afterAll(async () => {
  await t?.plane.close();
  removeDataDirs();
});

it("ends a create waiting on its watch at once when the engine cancels, recording the vcluster it made", async () => {
  const handler = testHandler(vclusterVCluster);
  await handler.configure(config);
  const { inputs } = await handler.check({}, { __provider: "p", owner: "0123456789abcdef", resourceName: "slow", name: "slow", namespace: "team-c" });
  const since = await lastSeq(t);
  const created = handler.create(inputs).then(
    () => undefined,
    (err: Error & { id?: string }) => err,
  );
  // Under way: the create was sent and the wait is on the watch stream.
  while (!(await callsSince(t, since)).includes("vcluster:WatchVCluster")) {
    // the next read of the audit is the wait
  }
  cancelAllWaits();
  const err = await created;
  expect(err?.message).toMatch(/^waiting: CANCELED: the Pulumi engine canceled the operation .*the vcluster was created and is recorded in the stack/);
  expect(err?.id).toMatch(/\S/);
});
