import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../emulator/testing";

const run = promisify(execFile);

/** The Go clients binary scripts/setup/go-clients.sh built (test/go-clients), as setup.sh exports it. */
const BINARY = process.env.CLUSTERFORM_GO_CLIENTS ?? "";

/** Runs one scenario of the Go clients against the plane and returns what they saw. */
async function goClients(scenario: string, plane: TestPlane): Promise<Record<string, unknown>> {
  if (!BINARY || !existsSync(BINARY)) {
    throw new Error(`CLUSTERFORM_GO_CLIENTS is ${JSON.stringify(BINARY)}: run \`. scripts/setup.sh\`, which builds the Go clients of test/go-clients`);
  }
  const { stdout } = await run(BINARY, [scenario, `127.0.0.1:${plane.plane.port}`], { timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

afterAll(removeDataDirs);

describe("the platforms' own kinds of client against the local plane", () => {
  let t: TestPlane;
  beforeAll(async () => {
    t = await startTestPlane({ timeScale: 0 });
  });
  afterAll(() => t.close());

  it("Peloton over YARPC's gRPC transport: v0 pools, jobs and pods listed by never-half-closed streams, ListJobWorkflows", async () => {
    const seen = await goClients("peloton", t);
    expect(seen).toMatchObject({
      lookedUp: seen.poolId,
      duplicatePoolError: expect.stringContaining('"go-pool"'),
      poolDescription: "from the Go client",
      poolPath: "/go-pool",
      listJobs: ["go-web"],
      listPods: 3,
      workflows: 2,
      unknownMethod: "Unimplemented",
      deleteError: false,
      poolPaths: ["/", "/go-pool"],
    });
    // The pool made through v0 is the one v1alpha and the admin view see.
    const pools = (await t.http("GET", "/_local/peloton/respools")).body as { id: string }[] | { respools: { id: string }[] };
    expect(JSON.stringify(pools)).toContain(String(seen.poolId));
    const audit = (await t.http("GET", "/_local/audit?api=peloton")).body as { entries: { operation: string; code: string }[] };
    expect(audit.entries.filter((e) => e.operation === "ListJobs" || e.operation === "ListPods").map((e) => e.code)).toEqual(["OK", "OK"]);
  });

  it("cma-ssh with its generated grpc-go client: INTERNAL for a failed create, no ok on the upgrade information", async () => {
    expect(await goClients("cmassh", t)).toEqual({
      createOk: true,
      createStatus: "PROVISIONING",
      duplicateCode: "Internal",
      duplicateMessage: expect.stringContaining("already exists"),
      getName: "go-c1",
      upgradeOk: false,
      upgradeVersions: expect.any(Number),
      unknownMethod: "Unimplemented",
      unknownService: "Unimplemented",
      unknownServiceMessage: "unknown service cmassh.NoSuchService",
      deleteStatus: "Deleted",
    });
  });

  it("vcluster with its generated grpc-go clients, answering as the reference server does", async () => {
    const seen = await goClients("vcluster", t);
    expect(seen).toMatchObject({
      createConditions: ["Initialized=True"],
      createOperation: true,
      watchFirst: "WATCH_EVENT_TYPE_ADDED",
      phase: "PHASE_RUNNING",
      updatedSpec: { kubernetesVersion: "1.29.0", distro: "k3s", helmValues: "a: 2", replicas: 1 },
      suspendOperation: true,
      suspendPhase: "PHASE_SUSPENDED",
      snapshots: 0,
      unknownMethod: "Unimplemented",
    });
    // Reference default: valid for validity_hours, 24 h when unset (the plane's clock is a fake one).
    expect(seen.kubeconfigExpiresAt).toBe(Math.floor(t.clock.now() / 1000) + 24 * 3600);
  });

  it("answers unknown procedures over raw HTTP/2 with gRPC status 12 in a trailers-only reply", async () => {
    expect(await goClients("raw", t)).toEqual({
      unknownMethod: { httpStatus: 200, contentType: "application/grpc", grpcStatus: "12", grpcMessage: "unknown method NoSuchMethod for service cmassh.Cluster", bodyBytes: 0 },
      unknownService: { httpStatus: 200, contentType: "application/grpc", grpcStatus: "12", grpcMessage: "unknown service no.such.Service", bodyBytes: 0 },
    });
  });
});
