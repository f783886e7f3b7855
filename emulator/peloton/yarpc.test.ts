import { afterAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane } from "../testing";
import { outcomeOf, pelotonClients, YARPC_HEADERS } from "./testing";
import { assertYarpcCall, readYarpcMetadata } from "./yarpc";

afterAll(removeDataDirs);

const JOBS = "peloton.api.v1alpha.job.stateless.svc.JobService";
const RESPOOLS = "peloton.api.v1alpha.respool.ResourcePoolService";

describe("YARPC metadata", () => {
  it.each([
    [{ "content-type": "application/grpc+proto" }, { caller: "", service: "", encoding: "proto" }],
    [{ "content-type": "application/grpc" }, { caller: "", service: "", encoding: "" }],
    [{ "content-type": "application/grpc", "rpc-encoding": "json", "rpc-caller": "cli", "rpc-service": "s" }, { caller: "cli", service: "s", encoding: "json" }],
  ])("reads %o as %o", (headers, expected) => {
    expect(readYarpcMetadata(new Headers(headers))).toEqual(expected);
  });

  it.each([
    [{ caller: "", service: "", encoding: "" }, JOBS, true, "missing service name, caller name, encoding"],
    [{ caller: "cli", service: "", encoding: "proto" }, JOBS, true, "missing service name"],
    [{ caller: "cli", service: "peloton-hostmgr", encoding: "proto" }, JOBS, true, 'unrecognized service name "peloton-hostmgr"'],
    [{ caller: "cli", service: "peloton-jobmgr", encoding: "proto" }, RESPOOLS, true, `unrecognized procedure "${RESPOOLS}::M"`],
    [{ caller: "cli", service: "peloton-resmgr", encoding: "proto" }, JOBS, true, `unrecognized procedure "${JOBS}::M"`],
    [{ caller: "cli", service: "peloton-jobmgr", encoding: "proto" }, JOBS, false, "missing TTL"],
  ])("refuses %o on %s (deadline %s): %s", (meta, service, hasDeadline, message) => {
    expect(() => assertYarpcCall(meta, service, "M", hasDeadline)).toThrow(message);
  });

  it.each([
    ["peloton-apiserver", JOBS],
    ["peloton-apiserver", RESPOOLS],
    ["peloton-jobmgr", JOBS],
    ["peloton-resmgr", RESPOOLS],
  ])("lets %s serve %s", (service, serviceName) => {
    expect(() => assertYarpcCall({ caller: "cli", service, encoding: "proto" }, serviceName, "M", true)).not.toThrow();
  });

  it("answers a call without YARPC metadata INVALID_ARGUMENT, and audits it", async () => {
    const t = await startTestPlane();
    try {
      const bare = pelotonClients(t.plane.url, {});
      expect(await outcomeOf(bare.jobs.getJob({ jobId: { value: "x" } }))).toEqual({
        code: "InvalidArgument",
        message: "missing service name, caller name",
      });
      const good = pelotonClients(t.plane.url, YARPC_HEADERS);
      expect(await outcomeOf(good.jobs.getJob({ jobId: { value: "x" } }))).toEqual({ code: "NotFound", message: "job:x not found" });
      let echoed: string | null = null;
      await good.respools.queryResourcePools({}, { onHeader: (h) => (echoed = h.get("rpc-service")) });
      expect(echoed).toBe("peloton-apiserver");
      const audit = (await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string; code: string }[] };
      expect(audit.entries.map((e) => [e.api, e.operation, e.code])).toEqual([
        ["peloton", "GetJob", "INVALID_ARGUMENT"],
        ["peloton", "GetJob", "NOT_FOUND"],
        ["peloton", "QueryResourcePools", "OK"],
      ]);
    } finally {
      await t.close();
    }
  });
});
