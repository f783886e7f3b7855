import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { ConfigReader } from "../../../core/config";
import { importFailures, importRoundTrip, testHandler, testImporter } from "../../testing";
import { pelotonClient } from "../common";
import { pelotonResourcePool } from "../resource-pool/kind";
import { pelotonStatelessJob } from "./kind";

const resourcePoolHandler = testHandler(pelotonResourcePool);
const statelessJobHandler = testHandler(pelotonStatelessJob);
const statelessJobImport = testImporter(pelotonStatelessJob);

const identity = (resourceName: string, owner: string) => ({ __provider: "p", owner, resourceName });

let t: TestPlane;
let config: ConfigReader;
let respoolId: string;
beforeAll(async () => {
  t = await startTestPlane({ clock: systemClock as never, timeScale: 0.05 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await resourcePoolHandler.configure(config);
  await statelessJobHandler.configure(config);
  const pool = await resourcePoolHandler.check({}, { ...identity("web-pool", "0123456789abcdef"), name: "web-pool", resources: [{ kind: "cpu", reservation: 4, limit: 16 }, { kind: "memory", reservation: 1024, limit: 8192 }] });
  respoolId = (await resourcePoolHandler.create(pool.inputs)).id;
});
afterAll(async () => {
  (await pelotonClient(config)).close();
  await t.close();
  removeDataDirs();
});

describe("peloton:StatelessJob import", () => {
  it("imports a job by id with only reads: its whole spec, back to the inputs that made it", async () => {
    const created = (
      await statelessJobHandler.check({}, {
        ...identity("web", "1111111111111111"),
        name: "web",
        respoolId,
        instanceCount: 2,
        defaultSpec: {
          labels: { app: "web" },
          killGracePeriodSeconds: 30,
          containers: [
            {
              name: "web",
              image: "nginx:1.27",
              command: { value: "nginx", arguments: ["-g", "daemon off;"], shell: false },
              resources: { cpu: 0.5, memoryMb: 64, diskMb: 128 },
              ports: [{ name: "http", value: 8080, envName: "PORT" }],
              environment: { MODE: "prod" },
              livenessCheck: { command: "true", intervalSecs: 15 },
            },
          ],
        },
        instanceSpec: { "1": { revocable: true, containers: [{ name: "web", image: "nginx:1.28", resources: { cpu: 1, memoryMb: 128, gpu: 1 }, readinessCheck: { command: "curl -f localhost", enabled: false, timeoutSecs: 2 } }] } },
        sla: { priority: 2, preemptible: true },
        labels: { team: "web" },
        jobOwner: "alice",
        owningTeam: "web-team",
        description: "front end",
      })
    ).inputs;
    const { id } = await statelessJobHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: statelessJobHandler, importer: statelessJobImport, id, created });
    expect(result.inputs.jobId).toBe(id);
    expect(result.props).toMatchObject({ jobId: id, state: "RUNNING" });
  });

  it("imports a minimal job to just its name, pool, count and container", async () => {
    const created = (
      await statelessJobHandler.check({}, {
        ...identity("api", "2222222222222222"),
        name: "api",
        respoolId,
        instanceCount: 1,
        defaultSpec: { containers: [{ name: "api", image: "api:1", resources: { cpu: 0.25, memoryMb: 32 } }] },
      })
    ).inputs;
    const { id } = await statelessJobHandler.create(created);
    await importRoundTrip({ t, config, handler: statelessJobHandler, importer: statelessJobImport, id, created });
  });

  it("imports a stopped job with desiredState KILLED", async () => {
    const created = (
      await statelessJobHandler.check({}, {
        ...identity("batch", "3333333333333333"),
        name: "batch",
        respoolId,
        instanceCount: 1,
        desiredState: "KILLED",
        defaultSpec: { containers: [{ name: "batch", image: "batch:1", resources: { cpu: 0.25, memoryMb: 32 } }] },
      })
    ).inputs;
    const { id } = await statelessJobHandler.create(created);
    const result = await importRoundTrip({ t, config, handler: statelessJobHandler, importer: statelessJobImport, id, created });
    expect(result.inputs.desiredState).toBe("KILLED");
  });

  it("fails clearly on a wrong-shaped id, a job that does not exist and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: statelessJobHandler, importer: statelessJobImport }, "web", "00000000-0000-4000-8000-000000000000");
  });
});
