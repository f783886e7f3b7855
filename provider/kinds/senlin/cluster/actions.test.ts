import { describe, expect, it } from "vitest";
import { ClusterformError } from "../../../core/errors";
import { isBusy } from "./actions";

const http = (status: number, message: string) => ClusterformError.fromHttp(status, { error: { message } }, "ResizeCluster cluster \"c\"");

describe("isBusy", () => {
  it.each<[string, unknown, boolean]>([
    ["another action conflicts", http(409, "The CLUSTER_RESIZE action for target c conflicts with the following action(s): a1"), true],
    ["the cluster cools down", http(409, "The cluster c is in cooldown."), true],
    ["the cluster is in a busy status", http(409, "The cluster 'c' is in status UPDATING."), true],
    ["policies block a delete (detach them instead)", http(409, "The cluster 'c' cannot be deleted: there is still policy(s) attached to it."), false],
    ["a node is not an orphan", http(409, "Node n is not an orphan node."), false],
    ["a 400", http(400, "The specified profile 'p' could not be found."), false],
    ["a plain error", new Error("conflicts with"), false],
  ])("%s: %s", (_, err, busy) => {
    expect(isBusy(err)).toBe(busy);
  });
});
