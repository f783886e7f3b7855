import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";

const c = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } };
const job = (patch: Record<string, unknown>) => ({ jobs: { web: { instanceCount: 2, defaultSpec: { containers: [c] }, ...patch } } });
const container = (patch: Record<string, unknown>) => job({ defaultSpec: { containers: [{ ...c, ...patch }] } });
const goodPool = { resources: [{ kind: "cpu", reservation: 1, limit: 10 }] };
const pool = (patch: Record<string, unknown>) => ({ pool: { ...goodPool, ...patch }, jobs: {} });

/** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
const badInputs: [string, Record<string, unknown>, string, RegExp][] = [
  ["no instances", job({ instanceCount: 0 }), "instanceCount", /integer between 1 and 10000, got 0/],
  ["a fractional instance count", job({ instanceCount: 1.5 }), "instanceCount", /got 1\.5/],
  ["a pod without containers", job({ defaultSpec: { containers: [] } }), "defaultSpec.containers", /at least 1 items, got \[\]/],
  ["two containers of one name", job({ defaultSpec: { containers: [c, c] } }), "defaultSpec.containers[1].name", /unique in the pod: "web" appears twice/],
  ["zero CPU", container({ resources: { cpu: 0, memoryMb: 64 } }), "defaultSpec.containers[0].resources.cpu", /greater than 0, got 0/],
  ["negative memory", container({ resources: { cpu: 1, memoryMb: -5 } }), "defaultSpec.containers[0].resources.memoryMb", /greater than 0, got -5/],
  ["a port above 65535", container({ ports: [{ name: "http", value: 70000 }] }), "defaultSpec.containers[0].ports[0].value", /between 1 and 65535, got 70000/],
  ["two ports of one name", container({ ports: [{ name: "p", value: 1 }, { name: "p", value: 2 }] }), "defaultSpec.containers[0].ports[1].name", /unique in the container/],
  ["a health check without a command", container({ livenessCheck: { command: "" } }), "defaultSpec.containers[0].livenessCheck.command", /non-empty string, got ""/],
  ["a health check timeout of 0", container({ readinessCheck: { command: "true", timeoutSecs: 0 } }), "defaultSpec.containers[0].readinessCheck.timeoutSecs", /between 1 and 86400, got 0/],
  ["an override beyond instanceCount", job({ instanceSpec: { "7": { containers: [c] } } }), 'instanceSpec["7"]', /overrides instance 7, but instanceCount 2 has instances 0 to 1/],
  ["batch size 0", job({ updatePolicy: { batchSize: 0 } }), "updatePolicy.batchSize", /between 1 and 10000, got 0/],
  [
    "a batch larger than the SLA allows down",
    job({ updatePolicy: { batchSize: 4 }, sla: { maximumUnavailableInstances: 1 } }),
    "updatePolicy.batchSize",
    /at most sla\.maximumUnavailableInstances 1 .*got 4/,
  ],
  ["an unknown desired state", job({ desiredState: "PAUSED" }), "desiredState", /one of "RUNNING" or "KILLED", got "PAUSED"/],
  ["a job timeout that is not a duration", job({ timeouts: { update: "soon" } }), "timeouts.update", /duration.*got "soon"/],
  ["a pool name with '/'", pool({ name: "a/b" }), "name", /without "\/", got "a\/b"/],
  ["an unknown pool resource kind", pool({ resources: [{ kind: "tpu", reservation: 1, limit: 1 }] }), "resources[0].kind", /"cpu", "memory", "disk" or "gpu", got "tpu"/],
  ["a pool limit below its reservation", pool({ resources: [{ kind: "cpu", reservation: 8, limit: 4 }] }), "resources[0].limit", /at least the reservation 8, got 4/],
  ["a pool slack limit above 100%", pool({ slackLimit: { maxPercent: 120 } }), "slackLimit.maxPercent", /from 0 to 100, got 120/],
];

describe("Peloton: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openTestStack({ program: "peloton", workspace: "peloton-validation", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each(badInputs)("rejects %s", async (_what, change, field, reason) => {
    await t.configure({ pool: goodPool, jobs: {}, ...change });
    const since = await t.plane.lastSeq();
    const failure = await t.stack.preview().then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toBeDefined();
    expect(failure).toMatch(new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[]`));
    expect(failure).not.toContain("<nil>");
    expect(failure).toMatch(reason);
    expect(await t.plane.audit(since)).toEqual([]);
  });
});
