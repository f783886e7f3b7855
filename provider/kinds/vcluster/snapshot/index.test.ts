import { describe, expect, it } from "vitest";
import { vclusterSnapshot } from "./kind";
import { testHandler } from "../../testing";

const snapshotHandler = testHandler(vclusterSnapshot);

type Props = Record<string, unknown>;
const raw: Props = { __provider: "p", owner: "0123456789abcdef", resourceName: "nightly", vclusterName: "dev", namespace: "team-a" };

describe("snapshotHandler.check", () => {
  it("derives a name and accepts every field", async () => {
    const news = { ...raw, description: "d", retentionHours: 24, labels: { kind: "nightly" }, includeWorkloads: true };
    expect(await snapshotHandler.check({}, news)).toEqual({
      inputs: { ...news, name: expect.stringMatching(/^nightly-[0-9a-f]{7}$/), autoNamed: true },
      failures: [],
    });
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a missing vclusterName", { vclusterName: undefined }, [{ property: "vclusterName", reason: "vclusterName is required" }]],
    ["a negative retention", { retentionHours: -1 }, [{ property: "retentionHours", reason: "retentionHours must be an integer between 0 and 8760, got -1" }]],
    ["the reserved ownership label", { labels: { "clusterform.dev/owner": "x" } }, [{ property: "", reason: 'labels key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner to mark what it created, got "x"' }]],
    ["includeWorkloads as a string", { includeWorkloads: "yes" }, [{ property: "includeWorkloads", reason: 'includeWorkloads must be a boolean, got "yes"' }]],
  ])("rejects %s", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await snapshotHandler.check({}, news)).toEqual({ inputs: news, failures });
  });
});

describe("snapshotHandler.diff", () => {
  it.each<[string, Props]>([
    ["description", { description: "new" }],
    ["retentionHours", { retentionHours: 1 }],
    ["labels", { labels: { a: "b" } }],
    ["includeWorkloads", { includeWorkloads: true }],
    ["vclusterName", { vclusterName: "other" }],
  ])("replaces, deleting first, when %s changes", async (field, patch) => {
    const { inputs: olds } = await snapshotHandler.check({}, { ...raw, name: "s1" });
    const { inputs: news } = await snapshotHandler.check(olds, { ...raw, name: "s1", ...patch });
    expect(await snapshotHandler.diff("snap-1", { ...olds, status: "READY" }, news)).toEqual({ changes: true, replaces: [field], deleteBeforeReplace: true });
  });

  it("plans nothing when only timeouts change", async () => {
    const { inputs: olds } = await snapshotHandler.check({}, { ...raw, name: "s1" });
    const { inputs: news } = await snapshotHandler.check(olds, { ...raw, name: "s1", timeouts: { create: "1m" } });
    expect(await snapshotHandler.diff("snap-1", olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });
});
