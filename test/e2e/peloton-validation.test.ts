import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupPreviews, ownErrorLines } from "../harness/bad-inputs";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";

const c = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } };
const job = (patch: Record<string, unknown>) => ({ jobs: { web: { instanceCount: 2, defaultSpec: { containers: [c] }, ...patch } } });
const goodPool = { resources: [{ kind: "cpu", reservation: 1, limit: 10 }] };
const pool = (patch: Record<string, unknown>) => ({ pool: { ...goodPool, ...patch }, jobs: {} });

/**
 * Bad inputs previewed together. The provider's check reports every failure of a resource at
 * once, but Pulumi stops at the first resource whose check fails (and a job waits for its pool),
 * so a group holds bad fields of one resource. No two inputs of a group share a field. A rule
 * across fields (an override beyond instanceCount, a batch above the SLA, a limit below the
 * reservation, unique names) runs only once everything it covers is valid: such an input is
 * grouped only with inputs outside what it covers.
 */
interface Group {
  /** The stack config of the group's preview. */
  config: Record<string, unknown>;
  /** The resource whose check fails. */
  resource: string;
  /** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
  inputs: [string, string, RegExp][];
}

const groups: Group[] = [
  {
    config: job({
      instanceCount: 0,
      defaultSpec: {
        containers: [
          {
            ...c,
            resources: { cpu: 0, memoryMb: -5 },
            ports: [{ name: "http", value: 70000 }],
            livenessCheck: { command: "" },
            readinessCheck: { command: "true", timeoutSecs: 0 },
          },
        ],
      },
      updatePolicy: { batchSize: 0 },
      desiredState: "PAUSED",
      timeouts: { update: "soon" },
    }),
    resource: "web",
    inputs: [
      ["no instances", "instanceCount", /integer between 1 and 10000, got 0/],
      ["zero CPU", "defaultSpec.containers[0].resources.cpu", /greater than 0, got 0/],
      ["negative memory", "defaultSpec.containers[0].resources.memoryMb", /greater than 0, got -5/],
      ["a port above 65535", "defaultSpec.containers[0].ports[0].value", /between 1 and 65535, got 70000/],
      ["a health check without a command", "defaultSpec.containers[0].livenessCheck.command", /non-empty string, got ""/],
      ["a health check timeout of 0", "defaultSpec.containers[0].readinessCheck.timeoutSecs", /between 1 and 86400, got 0/],
      ["batch size 0", "updatePolicy.batchSize", /between 1 and 10000, got 0/],
      ["an unknown desired state", "desiredState", /one of "RUNNING" or "KILLED", got "PAUSED"/],
      ["a job timeout that is not a duration", "timeouts.update", /duration.*got "soon"/],
    ],
  },
  {
    // Rules across the job's fields: checked only when the whole job is otherwise valid.
    config: job({ instanceSpec: { "7": { containers: [c] } }, updatePolicy: { batchSize: 4 }, sla: { maximumUnavailableInstances: 1 } }),
    resource: "web",
    inputs: [
      ["an override beyond instanceCount", 'instanceSpec["7"]', /overrides instance 7, but instanceCount 2 has instances 0 to 1/],
      ["a batch larger than the SLA allows down", "updatePolicy.batchSize", /at most sla\.maximumUnavailableInstances 1 .*got 4/],
    ],
  },
  {
    // Unique container names: checked only when every container is valid.
    config: job({ instanceCount: 1.5, defaultSpec: { containers: [c, c] } }),
    resource: "web",
    inputs: [
      ["a fractional instance count", "instanceCount", /got 1\.5/],
      ["two containers of one name", "defaultSpec.containers[1].name", /unique in the pod: "web" appears twice/],
    ],
  },
  {
    config: job({ defaultSpec: { containers: [] } }),
    resource: "web",
    inputs: [["a pod without containers", "defaultSpec.containers", /at least 1 items, got \[\]/]],
  },
  {
    // Unique port names: checked only when every port is valid.
    config: job({ defaultSpec: { containers: [{ ...c, ports: [{ name: "p", value: 1 }, { name: "p", value: 2 }] }] } }),
    resource: "web",
    inputs: [["two ports of one name", "defaultSpec.containers[0].ports[1].name", /unique in the container/]],
  },
  {
    config: pool({ name: "a/b", resources: [{ kind: "tpu", reservation: 1, limit: 1 }], slackLimit: { maxPercent: 120 } }),
    resource: "compute",
    inputs: [
      ["a pool name with '/'", "name", /without "\/", got "a\/b"/],
      ["an unknown pool resource kind", "resources[0].kind", /"cpu", "memory", "disk" or "gpu", got "tpu"/],
      ["a pool slack limit above 100%", "slackLimit.maxPercent", /from 0 to 100, got 120/],
    ],
  },
  {
    // Limit against reservation: checked only when the resource entry is otherwise valid.
    config: pool({ resources: [{ kind: "cpu", reservation: 8, limit: 4 }] }),
    resource: "compute",
    inputs: [["a pool limit below its reservation", "resources[0].limit", /at least the reservation 8, got 4/]],
  },
];

const badInputs = groups.flatMap((group) => group.inputs.map(([what, field, reason]) => [what, group, field, reason] as const));

describe("Peloton: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openTestStack({ program: "peloton", workspace: "peloton-validation", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  // The first `it` of a group runs its preview; the others of the group read the same result.
  const previewOf = groupPreviews<Group>(
    () => t,
    async (group) => {
      await t.configure({ pool: goodPool, jobs: {}, ...group.config });
    },
  );

  it.each(badInputs)("rejects %s", async (_what, group, field, reason) => {
    const { failure, calls } = await previewOf(group);
    expect(failure).toBeDefined();
    const named = new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[]`);
    expect(failure).toMatch(named);
    expect(failure).not.toContain("<nil>");
    expect(failure).toMatch(reason);
    // The same on this input's own messages: those of the resource that name the field.
    const own = ownErrorLines(failure, group.resource, named);
    expect(own).toMatch(reason);
    expect(calls).toEqual([]);
  });
});
