import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { pelotonClient } from "../common";
import { pelotonStatelessJob } from "../stateless-job/kind";
import { pelotonResourcePool } from "./kind";
import { testHandler } from "../../testing";

const statelessJobHandler = testHandler(pelotonStatelessJob);
const resourcePoolHandler = testHandler(pelotonResourcePool);

type Props = Record<string, unknown>;
afterAll(removeDataDirs);

/** The hidden inputs the SDK sends; the owner marker differs per Pulumi resource, as the SDK's does. */
const identity = (resourceName: string): Props => ({
  __provider: "p",
  owner: createHash("sha256").update(resourceName).digest("hex").slice(0, 16),
  resourceName,
});

let t: TestPlane;
let config: ConfigReader;

beforeEach(async () => {
  t = await startTestPlane({ clock: systemClock as never, timeScale: 0.05 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await resourcePoolHandler.configure(config);
  await statelessJobHandler.configure(config);
});
afterEach(async () => {
  (await pelotonClient(config)).close();
  await t.close();
});

/** Checks and creates a pool; returns its id and everything the state would hold. */
async function createPool(news: Props): Promise<{ id: string; props: Props }> {
  const { inputs, failures } = await resourcePoolHandler.check({}, news);
  expect(failures).toEqual([]);
  const { id, outs } = await resourcePoolHandler.create(inputs);
  return { id, props: outs };
}

describe("peloton.ResourcePool against the local control plane", () => {
  it("refuses to delete a pool that still holds a child pool, or a job, naming them, and deletes each once empty", async () => {
    const parent = await createPool({ ...identity("services"), name: "services", resources: [{ kind: "cpu", reservation: 2, limit: 8 }] });
    const child = await createPool({ ...identity("batch"), name: "batch", parent: parent.id });
    const leaf = await createPool({ ...identity("web-pool"), name: "web-pool", resources: [{ kind: "cpu", reservation: 2, limit: 8 }] });
    const job = await statelessJobHandler.check(
      {},
      { ...identity("web"), name: "web", respoolId: leaf.id, instanceCount: 1, defaultSpec: { containers: [{ name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } }] } },
    );
    expect(job.failures).toEqual([]);
    const created = await statelessJobHandler.create(job.inputs);

    const refusal = (pool: { id: string; props: Props }) =>
      resourcePoolHandler.delete(pool.id, pool.props).then(
        () => "deleted",
        (err: Error) => err.message,
      );
    const withChild = await refusal(parent);
    expect(withChild).toMatch(/^DeleteResourcePool pool "\/services" \(id [0-9a-f-]+\): /);
    expect(withChild).toContain('the pool still holds child pool(s) "/services/batch": delete or move them first');
    const withJob = await refusal(leaf);
    expect(withJob).toMatch(/^DeleteResourcePool pool "\/web-pool" \(id [0-9a-f-]+\): /);
    expect(withJob).toContain(`the pool still holds job(s) "web" (${created.id}): delete or move them first`);

    await statelessJobHandler.delete(created.id, created.outs);
    await resourcePoolHandler.delete(child.id, child.props);
    expect(await refusal(parent)).toBe("deleted");
    expect(await refusal(leaf)).toBe("deleted");
    expect(await resourcePoolHandler.read(parent.id, parent.props)).toEqual({ id: "", props: {} });
  });
});
