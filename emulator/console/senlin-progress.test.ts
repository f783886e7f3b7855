import { describe, expect, it } from "vitest";
import { membershipProgress } from "./app/senlin-progress";
import type { SenlinAction, SenlinNode } from "./app/types";

/** An action in flight as the plane renders it: a start time once started, none while READY to start. */
const action = (name: string, status = "RUNNING"): SenlinAction => ({
  id: "a1",
  action: name,
  status,
  status_reason: "",
  inputs: {},
  data: {},
  created_at: null,
  start_time: status === "READY" ? null : 1_700_000_000,
});
const members = (...statuses: string[]): SenlinNode[] =>
  statuses.map((status, i) => ({ id: `n${i}`, name: `node-${i}`, status, status_reason: "", profile_id: "p", cluster_id: "c", index: i + 1 }));

describe("a Senlin resize's progress in the console", () => {
  it("counts the members in place against the desired capacity while nodes are created", () => {
    expect(membershipProgress(action("CLUSTER_RESIZE"), { desired_capacity: 3, members: members("ACTIVE", "CREATING", "CREATING") })).toEqual({
      value: 1 / 3,
      detail: "CLUSTER_RESIZE to 3 nodes: 1 of 3 active, 2 creating",
    });
  });

  it("counts the members leaving until they are gone on a scale-in", () => {
    expect(membershipProgress(action("CLUSTER_SCALE_IN"), { desired_capacity: 1, members: members("ACTIVE", "DELETING") })).toEqual({
      value: 1 / 2,
      detail: "CLUSTER_SCALE_IN to 1 node: 1 of 1 active, 1 deleting",
    });
  });

  it("shows the progress of an action WAITING for its node actions, or READY again after them, as Senlin's go", () => {
    const cluster = { desired_capacity: 2, members: members("ACTIVE", "CREATING") };
    const progress = { value: 1 / 2, detail: "CLUSTER_RESIZE to 2 nodes: 1 of 2 active, 1 creating" };
    expect(membershipProgress(action("CLUSTER_RESIZE", "WAITING"), cluster)).toEqual(progress);
    expect(membershipProgress({ ...action("CLUSTER_RESIZE", "READY"), start_time: 1_700_000_000 }, cluster)).toEqual(progress);
  });

  it("shows no progress for an action still waiting its turn, nor for one that changes no members", () => {
    expect(membershipProgress(action("CLUSTER_RESIZE", "READY"), { desired_capacity: 2, members: members("ACTIVE") })).toBeUndefined();
    expect(membershipProgress({ ...action("CLUSTER_RESIZE", "READY"), start_time: null }, { desired_capacity: 2, members: members("ACTIVE") })).toBeUndefined();
    expect(membershipProgress(action("CLUSTER_CHECK"), { desired_capacity: 1, members: members("ACTIVE") })).toBeUndefined();
  });
});
