import { describe, expect, it } from "vitest";
import { reporterFor, SILENT } from "./engine-log";

describe("reporterFor", () => {
  it.each<[string, Record<string, unknown>]>([
    ["no URN (state written before the SDK sent one)", {}],
    ["something that is not a URN", { resourceUrn: "prod" }],
  ])("stays silent for %s", (_, props) => {
    expect(reporterFor(props)).toBe(SILENT);
  });

  it("never throws outside Pulumi's dynamic provider process, where no engine listens", async () => {
    const reporter = reporterFor({ resourceUrn: "urn:pulumi:dev::app::pulumi-nodejs:dynamic/cmassh:Cluster::prod" });
    expect(reporter).not.toBe(SILENT);
    expect(() => reporter.progress("waiting")).not.toThrow();
    await expect(reporter.warn("careful")).resolves.toBeUndefined();
  });
});
