import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { ClusterformError } from "../../core/errors";
import { type CmasshClient, createCmasshClient } from "./client";

afterAll(removeDataDirs);

let t: TestPlane;
let client: CmasshClient;
beforeEach(async () => {
  t = await startTestPlane({ timeScale: 0 });
  client = createCmasshClient({ endpoint: t.plane.url });
});
afterEach(async () => {
  client.close();
  await t.close();
});

async function failureOf(call: Promise<unknown>): Promise<ClusterformError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClusterformError);
  return error as ClusterformError;
}

const cluster = (name: string) => ({ name, k8sVersion: "1.30.10", controlPlaneNodes: { instanceType: "standard", count: 1, labels: [] } });

describe("cma-ssh create failures, which the real server answers INTERNAL", () => {
  it("reads INTERNAL 'already exists' as ALREADY_EXISTS, for adoption after an interrupted create", async () => {
    await client.createCluster(cluster("c1"));
    const error = await failureOf(client.createCluster(cluster("c1")));
    expect([error.code, error.platformCode]).toEqual(["AlreadyExists", "INTERNAL"]);
    expect(error.message).toBe('CreateCluster cluster "c1": INTERNAL: namespaces "c1" already exists');
  });

  it("reads any other INTERNAL as a refused create, saying why", async () => {
    const error = await failureOf(client.createCluster(cluster("Not_Valid")));
    expect([error.code, error.platformCode]).toEqual(["Internal", "INTERNAL"]);
    expect(error.message).toMatch(/^CreateCluster cluster "Not_Valid": INTERNAL: cma-ssh refused the create: invalid cluster name "Not_Valid": must be a DNS-1123 label/);
    expect(error.message).toContain("reports every create failure, invalid input included, as INTERNAL");
  });

  it("does the same for AddNodePool", async () => {
    await client.createCluster({ ...cluster("c1") });
    await client.addNodePool("c1", [{ name: "p1", instanceType: "standard", count: 1, labels: [] }]);
    const exists = await failureOf(client.addNodePool("c1", [{ name: "p1", instanceType: "standard", count: 1, labels: [] }]));
    expect(exists.code).toBe("AlreadyExists");
    const refused = await failureOf(client.addNodePool("c1", [{ name: "P_1", instanceType: "standard", count: 1, labels: [] }]));
    expect(refused.code).toBe("Internal");
    expect(refused.platformMessage).toContain('invalid node pool name "P_1"');
  });
});
