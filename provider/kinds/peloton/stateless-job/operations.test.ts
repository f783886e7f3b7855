import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import { createPelotonClient } from "../../../clients/peloton/client";
import type { ConfigReader } from "../../../core/config";
import { lastSeq, testHandler, writesSince } from "../../testing";
import { pelotonClient } from "../common";
import { pelotonResourcePool } from "../resource-pool/kind";
import { pelotonStatelessJob } from "./kind";
import { recorded } from "./operations";
import type { StatelessJobInputs } from "./schema";

type Props = Record<string, unknown>;
const pod = (image: string) => ({ containers: [{ name: "web", image, resources: { cpu: 1, memoryMb: 64 } }] });
const olds: Props = { owner: "o", resourceName: "web", respoolId: "p", instanceCount: 2, defaultSpec: pod("a"), desiredState: "RUNNING" };
const news = {
  ...olds,
  instanceCount: 3,
  defaultSpec: pod("b"),
  labels: { tier: "x" },
  restartNonce: "2",
  desiredState: "KILLED",
  updatePolicy: { batchSize: 2 },
} as unknown as StatelessJobInputs & Props;

describe("recorded: what the state keeps after a failed update", () => {
  it("keeps the old configuration, nonce and run state when nothing was applied, dropping fields the old inputs lacked", () => {
    const out = recorded(olds, news, new Set());
    expect(out).toEqual({ ...olds, updatePolicy: { batchSize: 2 } });
    expect(Object.values(out)).not.toContain(undefined);
  });

  it("records the new configuration once the rollout succeeded, and the run state only when it was reached", () => {
    expect(recorded(olds, news, new Set(["config", "restartNonce"]))).toEqual({ ...news, desiredState: "RUNNING" });
    expect(recorded(olds, news, new Set(["config", "restartNonce", "desiredState"]))).toEqual(news);
  });
});

describe("a job deleted outside the stack", () => {
  const resourcePoolHandler = testHandler(pelotonResourcePool);
  const statelessJobHandler = testHandler(pelotonStatelessJob);
  let t: TestPlane;
  let config: ConfigReader;
  beforeAll(async () => {
    t = await startTestPlane({ clock: systemClock as never, timeScale: 0.05 });
    config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
    await resourcePoolHandler.configure(config);
    await statelessJobHandler.configure(config);
  });
  afterAll(async () => {
    (await pelotonClient(config)).close();
    await t.close();
    removeDataDirs();
  });

  const jobs = async () => ((await t.http("GET", "/_local/peloton/jobs")).body as { jobs: { id: string; state: string; pods: { state: string }[] }[] }).jobs;

  it("reads as gone with no write, and a create makes it again under the same id", async () => {
    const identity = { __provider: "p", owner: "0123456789abcdef" };
    const pool = await resourcePoolHandler.check({}, { ...identity, resourceName: "compute", resources: [{ kind: "cpu", reservation: 4, limit: 16 }] });
    const respoolId = (await resourcePoolHandler.create(pool.inputs)).id;
    const inputs = (await statelessJobHandler.check({}, { ...identity, resourceName: "web", respoolId, instanceCount: 3, defaultSpec: pod("nginx:1.27") })).inputs;
    const created = await statelessJobHandler.create(inputs);
    expect((await jobs()).map((j) => [j.id, j.state, j.pods.map((p) => p.state)])).toEqual([[created.id, "RUNNING", ["RUNNING", "RUNNING", "RUNNING"]]]);
    // Read right after create answers what create recorded: a refresh changes nothing.
    expect(await statelessJobHandler.read(created.id, created.outs)).toEqual({ id: created.id, props: created.outs });

    // Another Peloton client deletes it, running, with force.
    const other = createPelotonClient({ endpoint: t.plane.url, caller: "someone-else" });
    try {
      const live = await other.getJob(created.id);
      await other.deleteJob({ jobId: created.id, version: live.jobInfo!.status!.version!.value }, { force: true });
    } finally {
      other.close();
    }
    await expect.poll(async () => (await jobs()).length).toBe(0);

    const since = await lastSeq(t);
    expect(await statelessJobHandler.read(created.id, created.outs)).toEqual({ id: "", props: {} });
    expect(await writesSince(t, since)).toEqual([]);

    // The job id derives from the resource's identity and pool: the new job takes the old one's.
    const again = await statelessJobHandler.create(inputs);
    expect(again.id).toBe(created.id);
    expect(await writesSince(t, since)).toEqual(["peloton:CreateJob"]);
    expect((await jobs()).map((j) => [j.id, j.state, j.pods.map((p) => p.state)])).toEqual([[created.id, "RUNNING", ["RUNNING", "RUNNING", "RUNNING"]]]);
  });
});
