import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ResourcePoolSpecSchema } from "../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import { PoolLedger } from "./pool-ledger";
import type { RespoolRecord } from "./respool-store";

const pool = (id: string, parentId: string | null, limits: Record<string, number>): RespoolRecord => ({
  id,
  parentId,
  name: id,
  createdMs: 0,
  spec: create(ResourcePoolSpecSchema, { name: id, resources: Object.entries(limits).map(([kind, limit]) => ({ kind, limit })) }),
});

const pools = [pool("root", null, {}), pool("infra", "root", { cpu: 4 }), pool("a", "infra", { cpu: 3, gpu: 0 }), pool("b", "infra", {})];

describe("pool ledger", () => {
  it.each([
    ["a pod within every limit on the chain", "a", { cpu: 3 }, true],
    ["a pod over its own pool's limit", "a", { cpu: 3.5 }, false],
    ["a pod asking for a kind its pool limits to 0", "a", { cpu: 1, gpu: 1 }, false],
    ["a pod in a pool without limits, within the parent's", "b", { cpu: 4, memory: 1e9 }, true],
    ["a pod in a pool without limits, over the parent's", "b", { cpu: 5 }, false],
  ])("decides %s", (_what, poolId, demand, fits) => {
    expect(new PoolLedger(pools).fits(poolId, demand)).toBe(fits);
  });

  it("counts a pod against its pool and every ancestor", () => {
    const ledger = new PoolLedger(pools);
    ledger.add("a", { cpu: 2 });
    expect([ledger.usage("a"), ledger.usage("infra"), ledger.usage("root"), ledger.usage("b")]).toEqual([{ cpu: 2 }, { cpu: 2 }, { cpu: 2 }, {}]);
    expect(ledger.fits("b", { cpu: 2 })).toBe(true);
    expect(ledger.fits("b", { cpu: 2.5 })).toBe(false);
  });
});
