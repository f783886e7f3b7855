import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import { createVclusterClient, type VclusterClient } from "./client";

afterAll(removeDataDirs);

const dev = { name: "dev", namespace: "team-a" };
const spec = { kubernetesVersion: "1.29.0", distro: "k3s", replicas: 3, helmValues: "a: 1", isolationMode: "full" };

let t: TestPlane;
let client: VclusterClient;
afterEach(async () => {
  client.close();
  await t.close();
});

describe.each([
  ["honours update_mask (the plane's default)", false],
  ["ignores update_mask, as the API's reference server does", true],
])("UpdateVCluster against a server that %s", (_what, ignoreUpdateMask) => {
  async function start(): Promise<void> {
    t = await startTestPlane({ timeScale: 0, platformOptions: { vcluster: { ignoreUpdateMask } } });
    client = createVclusterClient({ endpoint: t.plane.url, requestIdPrefix: "test" });
    await client.createVCluster({ ...dev, spec, labels: { team: "a" } });
  }

  it("changes the masked field and keeps every other field of the spec", async () => {
    await start();
    const updated = await client.updateVCluster({ ...dev, spec: { helmValues: "a: 2" }, updateMask: ["spec.helm_values"] });
    expect(updated.spec).toMatchObject({ ...spec, helmValues: "a: 2" });
    expect((await client.getVCluster(dev)).spec).toMatchObject({ ...spec, helmValues: "a: 2" });
  });

  it("clears a masked field the update leaves out", async () => {
    await start();
    const updated = await client.updateVCluster({ ...dev, spec: {}, updateMask: ["spec.helm_values"] });
    expect(updated.spec).toMatchObject({ ...spec, helmValues: "" });
  });

  it("keeps the spec on a labels-only update", async () => {
    await start();
    const updated = await client.updateVCluster({ ...dev, spec: { helmValues: "ignored" }, labels: { team: "b" }, updateMask: ["labels"] });
    expect(updated.spec).toMatchObject(spec);
    expect(updated.labels).toMatchObject({ team: "b" });
  });
});
