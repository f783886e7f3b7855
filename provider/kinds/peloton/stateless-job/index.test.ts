import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { pelotonStatelessJob } from "./kind";
import { testHandler } from "../../testing";

const statelessJobHandler = testHandler(pelotonStatelessJob);

type Props = Record<string, unknown>;

const PROVIDER = 'exports.handler = require("clusterform/provider")';
const OWNER = "0123456789abcdef";
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
const NAME = expect.stringMatching(/^web-[0-9a-f]{7}$/);
const c = { name: "web", image: "nginx:1.27", resources: { cpu: 1, memoryMb: 64 } };

/** What the SDK sends for `new peloton.StatelessJob("web", { respoolId, instanceCount, defaultSpec })`. */
const raw: Props = { __provider: PROVIDER, owner: OWNER, resourceName: "web", respoolId: "pool-1", instanceCount: 2, defaultSpec: { containers: [c] } };
const withContainer = (patch: Props): Props => ({ defaultSpec: { containers: [{ ...c, ...patch }] } });

describe("statelessJobHandler.check", () => {
  it.each<[string, Props]>([
    ["the smallest job", {}],
    ["a job with every field", {
      name: "web-main",
      instanceSpec: { "1": { containers: [{ ...c, image: "nginx:canary" }] } },
      sla: { priority: 1, preemptible: true, revocable: false, maximumUnavailableInstances: 2 },
      labels: { team: "web" },
      jobOwner: "alice",
      owningTeam: "web",
      description: "frontend",
      updatePolicy: { batchSize: 2, maxInstanceRetries: 1, maxTolerableInstanceFailures: 1, rollbackOnFailure: true, inPlace: false, startPaused: false },
      desiredState: "KILLED",
      restartNonce: "7",
      timeouts: { update: "10m" },
    }],
    ["a container with command, ports, environment and health checks", withContainer({
      command: { value: "nginx", arguments: ["-g", "daemon off;"], shell: false },
      ports: [{ name: "http", value: 80 }, { name: "admin", envName: "ADMIN_PORT" }],
      environment: { MODE: "blue" },
      livenessCheck: { command: "curl -f localhost", intervalSecs: 5 },
      readinessCheck: { command: "true", enabled: false },
    })],
    ["values unknown in preview", { respoolId: UNKNOWN, instanceCount: UNKNOWN, defaultSpec: { containers: [{ ...c, image: UNKNOWN, resources: UNKNOWN }] } }],
  ])("accepts %s", async (_, patch) => {
    const { failures, inputs } = await statelessJobHandler.check({}, { ...raw, ...patch });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ ...raw, ...patch, name: patch.name ?? NAME });
  });

  it("derives the job id from the owner and the pool, stable across runs and new for another pool", async () => {
    const a = (await statelessJobHandler.check({}, raw)).inputs as Props;
    const b = (await statelessJobHandler.check({}, { ...raw, instanceCount: 5 })).inputs as Props;
    const moved = (await statelessJobHandler.check({}, { ...raw, respoolId: "pool-2" })).inputs as Props;
    expect(a.jobId).toEqual(UUID);
    expect(b.jobId).toBe(a.jobId);
    expect(moved.jobId).not.toBe(a.jobId);
    expect((await statelessJobHandler.check({}, { ...raw, respoolId: UNKNOWN })).inputs).toMatchObject({ jobId: UNKNOWN });
  });

  it("keeps the job id of the state while the pool is the same", async () => {
    const olds = { ...raw, jobId: "11111111-2222-8333-8444-555555555555" };
    expect((await statelessJobHandler.check(olds, { ...raw, instanceCount: 3 })).inputs).toMatchObject({ jobId: olds.jobId });
  });

  const DURATION = 'must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got';
  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["no instances", { instanceCount: 0 }, [{ property: "instanceCount", reason: "instanceCount must be an integer between 1 and 10000, got 0" }]],
    ["a fractional instance count", { instanceCount: 2.5 }, [{ property: "instanceCount", reason: "instanceCount must be an integer between 1 and 10000, got 2.5" }]],
    ["an empty pool id", { respoolId: "" }, [{ property: "respoolId", reason: 'respoolId must be a non-empty string, got ""' }]],
    ["a pod without containers", { defaultSpec: { containers: [] } }, [{ property: "", reason: "defaultSpec.containers must be at least 1 items, got []" }]],
    ["two containers of one name", { defaultSpec: { containers: [c, c] } }, [{ property: "", reason: 'defaultSpec.containers[1].name must be unique in the pod: "web" appears twice' }]],
    ["zero CPU", withContainer({ resources: { cpu: 0, memoryMb: 64 } }), [{ property: "", reason: "defaultSpec.containers[0].resources.cpu must be a number greater than 0, got 0" }]],
    ["negative memory", withContainer({ resources: { cpu: 1, memoryMb: -1 } }), [{ property: "", reason: "defaultSpec.containers[0].resources.memoryMb must be a number greater than 0, got -1" }]],
    ["a port above 65535", withContainer({ ports: [{ name: "http", value: 70000 }] }), [{ property: "", reason: "defaultSpec.containers[0].ports[0].value must be an integer between 1 and 65535, got 70000" }]],
    ["a port without value or envName", withContainer({ ports: [{ name: "http" }] }), [{ property: "", reason: "defaultSpec.containers[0].ports[0].value is required unless envName asks for a dynamic port" }]],
    ["two ports of one name", withContainer({ ports: [{ name: "http", value: 80 }, { name: "http", value: 81 }] }), [{ property: "", reason: 'defaultSpec.containers[0].ports[1].name must be unique in the container: "http" appears twice' }]],
    [
      "a health check without command and with interval 0",
      withContainer({ livenessCheck: { command: "", intervalSecs: 0 } }),
      [
        { property: "", reason: 'defaultSpec.containers[0].livenessCheck.command must be a non-empty string, got ""' },
        { property: "", reason: "defaultSpec.containers[0].livenessCheck.intervalSecs must be an integer between 1 and 86400, got 0" },
      ],
    ],
    ["an HTTP health check field the pod spec cannot carry", withContainer({ readinessCheck: { command: "x", httpGet: { port: 80 } } }), [{ property: "", reason: "defaultSpec.containers[0].readinessCheck.httpGet is not a known field" }]],
    ["an override beyond instanceCount", { instanceSpec: { "5": { containers: [c] } } }, [{ property: "", reason: 'instanceSpec["5"] overrides instance 5, but instanceCount 2 has instances 0 to 1' }]],
    ["an override key that is no instance id", { instanceSpec: { abc: { containers: [c] } } }, [{ property: "", reason: 'instanceSpec key "abc" must be an instance id (0, 1, 2, ...)' }]],
    ["batch size 0", { updatePolicy: { batchSize: 0 } }, [{ property: "", reason: "updatePolicy.batchSize must be an integer between 1 and 10000, got 0" }]],
    [
      "a batch larger than the SLA allows down",
      { updatePolicy: { batchSize: 3 }, sla: { maximumUnavailableInstances: 2 } },
      [{ property: "", reason: "updatePolicy.batchSize must be at most sla.maximumUnavailableInstances 2 (a batch takes that many instances down at once), got 3" }],
    ],
    ["an unknown desired state", { desiredState: "STOPPED" }, [{ property: "desiredState", reason: 'desiredState must be one of "RUNNING" or "KILLED", got "STOPPED"' }]],
    ["a boolean restart nonce", { restartNonce: true }, [{ property: "restartNonce", reason: "restartNonce must be a string or number, got true" }]],
    ["a bad timeout", { timeouts: { update: "soon" } }, [{ property: "", reason: `timeouts.update ${DURATION} "soon"` }]],
    ["an unknown field", { replicas: 3 }, [{ property: "replicas", reason: "replicas is not a known field" }]],
    ["a label that is not a string", { labels: { a: 1 } }, [{ property: "", reason: "labels.a must be a string, got 1" }]],
  ])("rejects %s, naming the field, the value and what is allowed", async (_, patch, failures) => {
    expect((await statelessJobHandler.check({}, { ...raw, ...patch })).failures).toEqual(failures);
  });
});

describe("statelessJobHandler.diff", () => {
  const olds = { ...raw, name: "web-1", jobId: "11111111-2222-8333-8444-555555555555" };
  it.each<[string, Props, { changes: boolean; replaces: string[] }]>([
    ["nothing changed", {}, { changes: false, replaces: [] }],
    ["instanceCount: in place (ReplaceJob)", { instanceCount: 3 }, { changes: true, replaces: [] }],
    ["defaultSpec: in place (ReplaceJob)", withContainer({ image: "nginx:1.28" }), { changes: true, replaces: [] }],
    ["desiredState: in place (StopJob)", { desiredState: "KILLED" }, { changes: true, replaces: [] }],
    ["restartNonce: in place (RestartJob)", { restartNonce: "2" }, { changes: true, replaces: [] }],
    ["updatePolicy alone changes nothing", { updatePolicy: { batchSize: 4 } }, { changes: false, replaces: [] }],
    ["timeouts alone change nothing", { timeouts: { update: "2h" } }, { changes: false, replaces: [] }],
    ["respoolId replaces", { respoolId: "pool-2" }, { changes: true, replaces: ["respoolId"] }],
    ["an unknown pool may replace", { respoolId: UNKNOWN }, { changes: true, replaces: ["respoolId"] }],
  ])("%s", async (_, patch, expected) => {
    const result = await statelessJobHandler.diff("id", olds, { ...olds, ...patch });
    expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
  });
});
