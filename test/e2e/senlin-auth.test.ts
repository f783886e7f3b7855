import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../harness/engine";
import { openSenlinStack, SENLIN_USER, type SenlinStack, senlinClusters } from "../harness/senlin-stack";
import { copyProgram } from "../harness/workspace";

const CLUSTER = { profile: "web-profile", desiredCapacity: 1 };

// The provider's own credential rules (clouds.yaml, OS_*, stack config, what is missing) and
// Keystone's tokens are tested in process (provider/kinds/openstack/credentials.test.ts,
// provider/clients/keystone/client.test.ts). What only the engine shows stays here: the dynamic
// provider runs in the program's folder and with the engine's environment.
describe("senlin: Keystone credentials the OpenStack way, from the program's folder and the engine's environment", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1, credentials: "none", env: { OS_CLOUD: "lab" } });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("takes the credentials from clouds.yaml in the program's folder, the cloud named by OS_CLOUD", async () => {
    const clouds = [
      "clouds:",
      "  lab:",
      "    auth:",
      `      auth_url: ${t.plane.url}/v3`,
      `      username: ${SENLIN_USER.username}`,
      `      password: ${SENLIN_USER.password}`,
      `      project_name: ${SENLIN_USER.project}`,
      "      user_domain_name: Default",
      "      project_domain_name: Default",
      "    region_name: RegionOne",
      "",
    ].join("\n");
    writeFileSync(path.join(t.programDir, "clouds.yaml"), clouds);
    await t.configure({ cluster: CLUSTER });
    const result = await t.stack.up();
    expect(result.outputs.status).toBe("ACTIVE");
    expect((await senlinClusters(t.plane)).map((c) => c.id)).toEqual([result.outputs.id]);
  });

  it("takes the credentials from the OS_* environment variables", async () => {
    // A second stack of the program on the same plane, in a folder of its own (no clouds.yaml).
    const stack = await openStack({
      programDir: copyProgram(t.workspace, "senlin"),
      config: { "clusterform:endpoint": { value: t.plane.url }, "test:cluster": { value: JSON.stringify(CLUSTER) } },
      env: { OS_USERNAME: SENLIN_USER.username, OS_PASSWORD: SENLIN_USER.password, OS_PROJECT_NAME: SENLIN_USER.project, OS_USER_DOMAIN_NAME: "Default" },
    });
    const result = await stack.up();
    expect(result.outputs.status).toBe("ACTIVE");
    expect((await senlinClusters(t.plane)).map((c) => c.id)).toContain(result.outputs.id);
  });
});

describe("senlin: microversions", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1, planeFlags: ["--senlin-max-microversion", "1.5"] });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("refuses, before sending it, a call needing a newer microversion than the server's version document names, with a clear message", async () => {
    await t.configure({ cluster: CLUSTER });
    const { outputs } = await t.stack.up();
    await t.configure({ cluster: { ...CLUSTER, profile: "web-profile-2", profileOnly: true } });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toContain(
      `UpdateCluster cluster "${outputs.id}": MICROVERSION: this call needs Senlin API microversion 1.6, but the server supports at most 1.5 (its version document's max_version)`,
    );
    // Nothing changed, and the state still says so: the next preview still plans the PATCH.
    expect((await senlinClusters(t.plane))[0].profile_name).toBe("web-profile");
    const { steps } = await t.stack.preview();
    expect(steps.filter((s) => s.name === "main").map((s) => s.op)).toEqual(["update"]);
    await t.configure({ cluster: { ...CLUSTER, profile: "web-profile-2" } });
    await t.stack.up();
    expect((await senlinClusters(t.plane))[0].profile_name).toBe("web-profile-2");
  });
});
