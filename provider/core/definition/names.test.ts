import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../unknown";
import { statelessJobKind } from "../../kinds/peloton/stateless-job/schema";
import { nodePoolKind } from "../../kinds/cmassh/node-pool/schema";
import { vclusterKind } from "../../kinds/vcluster/vcluster/schema";
import type { Kind } from "./kind";
import { engineName, failureInEngineNames, fromEngineNames, hiddenOf, snakeCase, toEngineNames } from "./names";

const job = statelessJobKind as unknown as Kind;

describe("engine names", () => {
  it.each([
    ["clusterName", "cluster_name"],
    ["maximumUnavailableInstances", "maximum_unavailable_instances"],
    ["enableHa", "enable_ha"],
    ["podCidr", "pod_cidr"],
  ])("snake-cases %s as %s", (name, snake) => expect(snakeCase(name)).toBe(snake));

  it("renames fields whose engine name differs: count is node_count in Terraform, jobOwner is owner in Pulumi", () => {
    expect(engineName("count", nodePoolKind.inputs.count, "terraform")).toBe("node_count");
    expect(engineName("count", nodePoolKind.inputs.count, "pulumi")).toBe("count");
    expect(engineName("jobOwner", statelessJobKind.inputs.jobOwner, "pulumi")).toBe("owner");
    expect(engineName("jobOwner", statelessJobKind.inputs.jobOwner, "terraform")).toBe("job_owner");
  });

  it("renames nested objects, lists and map values, leaves unknowns alone and keeps the hidden inputs apart", () => {
    const state = {
      owner: "marker",
      jobOwner: "team-a",
      instanceCount: 2,
      defaultSpec: { containers: [{ name: "web", resources: { cpu: 1, memoryMb: 64 }, livenessCheck: { command: "true", intervalSecs: 5 } }] },
      instanceSpec: { "0": { containers: [{ name: "w", resources: { cpu: 1, memoryMb: 32 } }], killGracePeriodSeconds: 3 } },
      sla: UNKNOWN,
      podStats: { RUNNING: 2 },
    };
    const tf = toEngineNames(job, state, "terraform");
    expect(tf).toEqual({
      job_owner: "team-a",
      instance_count: 2,
      default_spec: { containers: [{ name: "web", resources: { cpu: 1, memory_mb: 64 }, liveness_check: { command: "true", interval_secs: 5 } }] },
      instance_spec: { "0": { containers: [{ name: "w", resources: { cpu: 1, memory_mb: 32 } }], kill_grace_period_seconds: 3 } },
      sla: UNKNOWN,
      pod_stats: { RUNNING: 2 },
    });
    const { owner: _marker, ...visible } = state;
    expect(fromEngineNames(job, tf, "terraform")).toEqual(visible);
    expect(toEngineNames(job, state, "pulumi")).toMatchObject({ owner: "team-a", instanceCount: 2 });
    expect(hiddenOf(job, { ...state, resourceName: "web", jobId: "j-1" })).toEqual({ owner: "marker", resourceName: "web", jobId: "j-1" });
  });

  it("maps the Pulumi names of a vcluster back to its keys, keeping names no field has for validation to report", () => {
    const kind = vclusterKind as unknown as Kind;
    expect(fromEngineNames(kind, { owner: "alice", namespace: "ns", colour: "red" }, "pulumi")).toEqual({ vclusterOwner: "alice", namespace: "ns", colour: "red" });
  });

  it("names a check failure of a renamed field as the engine's users wrote it", () => {
    const failure = { property: "jobOwner", reason: "jobOwner must be a string, got 3" };
    expect(failureInEngineNames(job, failure, "pulumi")).toEqual({ property: "owner", reason: "owner must be a string, got 3" });
    expect(failureInEngineNames(job, failure, "terraform")).toEqual({ property: "job_owner", reason: "job_owner must be a string, got 3" });
    const other = { property: "instanceCount", reason: "instanceCount must be an integer between 1 and 10000, got 0" };
    expect(failureInEngineNames(job, other, "pulumi")).toBe(other);
  });
});
