import { describe, expect, it } from "vitest";
import { Deadline } from "../../core/deadline";
import { fakeTime } from "../../core/testing";
import { waitFor } from "../../core/wait";
import { type LogMessage, reporterFor, SILENT } from "./engine-log";

const URN = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/cmassh:NodePool::general";

describe("reporterFor", () => {
  it.each<[string, Record<string, unknown>]>([
    ["no URN (state written before the SDK sent one)", {}],
    ["something that is not a URN", { resourceUrn: "prod" }],
  ])("stays silent for %s", (_, props) => {
    expect(reporterFor(props)).toBe(SILENT);
  });

  it("never throws outside Pulumi's dynamic provider process, where no engine listens", async () => {
    const reporter = reporterFor({ resourceUrn: URN });
    expect(reporter).not.toBe(SILENT);
    expect(() => reporter.progress("waiting")).not.toThrow();
    await expect(reporter.warn("careful")).resolves.toBeUndefined();
  });

  it("sends a wait's messages as ephemeral Log calls, ends with one saying the wait is over, and returns once the engine has it", async () => {
    const time = fakeTime();
    const sent: { log: LogMessage; delivered: boolean }[] = [];
    const reporter = reporterFor({ resourceUrn: URN }, async (log) => {
      const entry = { log, delivered: false };
      sent.push(entry);
      // The engine answers a Log call on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      entry.delivered = true;
    });
    const states = ["RECONCILING", "RECONCILING", "RUNNING"];
    await waitFor({
      poll: async () => states.shift()!,
      isDone: (s) => s === "RUNNING",
      deadline: new Deadline(60_000, time.now),
      what: 'cluster "prod-abc" to be RUNNING',
      by: 'pool "general": ScaleNodePool to 5',
      describe: (s) => `status ${s}`,
      sleep: time.sleep,
      progress: reporter.progress,
    });
    expect(sent.map((s) => s.log)).toEqual([
      {
        urn: URN,
        message: 'pool "general": ScaleNodePool to 5: waiting for cluster "prod-abc" to be RUNNING: status RECONCILING (0ms, timeout 1m)',
        ephemeral: true,
        warning: false,
      },
      { urn: URN, message: 'pool "general": ScaleNodePool to 5: waited 400ms for cluster "prod-abc" to be RUNNING', ephemeral: true, warning: false },
    ]);
    // The row keeps its last message into the resource's next step: that one is delivered before the wait returns.
    expect(sent.at(-1)?.delivered).toBe(true);
  });
});
