import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSenlinStack, SENLIN_USER, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

const CLUSTER = { profile: "web-profile", desiredCapacity: 1 };

describe("senlin: Keystone credentials the OpenStack way, tokens and microversions", () => {
  let t: SenlinStack | undefined;

  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it("fails clearly on a wrong password, without the password, and makes zero Senlin calls", async () => {
    t = await openSenlinStack({ timeScale: 0.1, secrets: { "clusterform:senlinPassword": "Wrong-Password-123" } });
    await t.configure({ cluster: CLUSTER });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(new RegExp(`authenticating user "ops" in project "web" at ${t.plane.url.replace(/\./g, "\\.")}/v3: HTTP 401: `));
    expect(failure).not.toContain("Wrong-Password-123");
    const audit = await t.plane.audit(t.seeded);
    expect(audit.filter((e) => e.api === "senlin")).toEqual([]);
    expect(audit.filter((e) => e.api === "keystone").length).toBeGreaterThan(0);
    expect(await senlinClusters(t.plane)).toEqual([]);
  });

  it("renews an expired token transparently in the middle of an up", async () => {
    t = await openSenlinStack({ timeScale: 1, planeFlags: ["--keystone-token-ttl", "2"] });
    await t.configure({ cluster: { ...CLUSTER, desiredCapacity: 4, maxSize: 4, policies: [{ policy: "deletion" }, { policy: "affinity" }] } });
    const started = Date.now();
    const result = await t.stack.up();
    expect(Date.now() - started).toBeGreaterThan(2_000);
    expect(result.outputs.status).toBe("ACTIVE");
    const audit = await t.plane.audit(t.seeded);
    expect(audit.filter((e) => e.api === "keystone" && e.operation === "CreateToken").length).toBeGreaterThanOrEqual(2);
    expect(senlinMutations(audit)).toHaveLength(3);
    const [cluster] = await senlinClusters(t.plane);
    expect([cluster.nodes.length, cluster.bindings.length]).toEqual([4, 2]);
    await t.stack.destroy();
  });

  it("takes the credentials from clouds.yaml in the program's folder, the cloud named by OS_CLOUD", async () => {
    t = await openSenlinStack({ timeScale: 0.1, credentials: "none", env: { OS_CLOUD: "lab" } });
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
    await t.stack.destroy();
    expect(await senlinClusters(t.plane)).toEqual([]);
  });

  it("takes the credentials from the OS_* environment variables", async () => {
    t = await openSenlinStack({
      timeScale: 0.1,
      credentials: "none",
      env: { OS_USERNAME: SENLIN_USER.username, OS_PASSWORD: SENLIN_USER.password, OS_PROJECT_NAME: SENLIN_USER.project, OS_USER_DOMAIN_NAME: "Default" },
    });
    await t.configure({ cluster: CLUSTER });
    const result = await t.stack.up();
    expect(result.outputs.status).toBe("ACTIVE");
    await t.stack.destroy();
    expect(await senlinClusters(t.plane)).toEqual([]);
  });

  it("says what is missing when no credentials are given at all, before any call", async () => {
    t = await openSenlinStack({ timeScale: 0.1, credentials: "none" });
    await t.configure({ cluster: CLUSTER });
    await expect(t.stack.up()).rejects.toThrow(/username, password, projectName not given: set OS_USERNAME or clusterform:senlinUsername/);
    expect(await t.plane.audit(t.seeded)).toEqual([]);
  });

  it("refuses, before sending it, a call needing a newer microversion than the server's version document names, with a clear message", async () => {
    t = await openSenlinStack({ timeScale: 0.1, planeFlags: ["--senlin-max-microversion", "1.5"] });
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
    await t.stack.destroy();
  });
});
