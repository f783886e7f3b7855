import { describe, expect, it } from "vitest";
import { cloudsYamlPaths, type ReadText, resolveOpenStackSettings } from "./credentials";

const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });
const noFiles: ReadText = () => undefined;
const ENV = { OS_AUTH_URL: "http://keystone:5000/v3", OS_USERNAME: "env-user", OS_PASSWORD: "env-pw", OS_PROJECT_NAME: "env-proj" };
const CLOUDS = `clouds:
  lab:
    auth:
      auth_url: http://lab:5000
      username: lab-user
      password: lab-pw
      project_name: lab-proj
      user_domain_name: LabDomain
    region_name: RegionTwo
    interface: internal
`;
const files = (map: Record<string, string>): ReadText => (f) => map[f];

describe("resolveOpenStackSettings", () => {
  it("reads the OS_* environment variables", () => {
    const s = resolveOpenStackSettings("senlin", config({}), { env: ENV, read: noFiles });
    expect(s.credentials).toEqual({ authUrl: "http://keystone:5000/v3", username: "env-user", password: "env-pw", projectName: "env-proj", userDomainName: undefined, projectDomainName: undefined });
    expect(s.endpoint).toBeUndefined();
    expect(s.sources.username).toBe("environment variable OS_USERNAME");
  });

  it("lets stack config win over the environment, field by field", () => {
    const s = resolveOpenStackSettings("senlin", config({ "clusterform:senlinPassword": "cfg-pw", "clusterform:senlinRegion": "R1" }), { env: ENV, read: noFiles });
    expect([s.credentials.username, s.credentials.password, s.region]).toEqual(["env-user", "cfg-pw", "R1"]);
    expect(s.sources.password).toBe("stack config clusterform:senlinPassword");
  });

  it("reads the cloud OS_CLOUD names from the first clouds.yaml on the search path", () => {
    const paths = cloudsYamlPaths({}, "/prog", "/home/u");
    expect(paths).toEqual(["/prog/clouds.yaml", "/home/u/.config/openstack/clouds.yaml", "/etc/openstack/clouds.yaml"]);
    const s = resolveOpenStackSettings("senlin", config({}), { env: { OS_CLOUD: "lab" }, read: files({ [paths[1]]: CLOUDS }), cwd: "/prog", home: "/home/u" });
    expect(s.credentials).toEqual({ authUrl: "http://lab:5000", username: "lab-user", password: "lab-pw", projectName: "lab-proj", userDomainName: "LabDomain", projectDomainName: undefined });
    expect([s.region, s.interface]).toEqual(["RegionTwo", "internal"]);
  });

  it("lets an OS_* variable override the cloud's value", () => {
    const s = resolveOpenStackSettings("senlin", config({}), { env: { OS_CLOUD: "lab", OS_USERNAME: "other" }, read: files({ "/p/clouds.yaml": CLOUDS }), cwd: "/p", home: "/h" });
    expect([s.credentials.username, s.credentials.password]).toEqual(["other", "lab-pw"]);
  });

  it("names the searched files when no clouds.yaml exists", () => {
    expect(() => resolveOpenStackSettings("senlin", config({}), { env: { OS_CLOUD: "lab" }, read: noFiles, cwd: "/p", home: "/h" })).toThrow(
      'reading OpenStack cloud "lab" from clouds.yaml: INVALID_CONFIG: no clouds.yaml found; looked in /p/clouds.yaml, /h/.config/openstack/clouds.yaml, /etc/openstack/clouds.yaml',
    );
  });

  it("names the clouds a clouds.yaml has when the wanted one is missing", () => {
    expect(() => resolveOpenStackSettings("senlin", config({ "clusterform:senlinCloud": "prod" }), { env: {}, read: files({ "/p/clouds.yaml": CLOUDS }), cwd: "/p", home: "/h" })).toThrow(
      '/p/clouds.yaml has no cloud "prod"; it has "lab"',
    );
  });

  it("says what is missing and every way to give it, without any value", () => {
    expect(() => resolveOpenStackSettings("senlin", config({ "clusterform:senlinUsername": "u" }), { env: {}, read: noFiles })).toThrow(
      "password, projectName not given: set OS_PASSWORD or clusterform:senlinPassword, OS_PROJECT_NAME or clusterform:senlinProjectName",
    );
    // Nothing at all: no config, no OS_* variable, no clouds.yaml. The Senlin client is made only from
    // what this resolves (provider/kinds/senlin/client.ts), so no call can go out before it fails.
    expect(() => resolveOpenStackSettings("senlin", config({}), { env: {}, read: noFiles, cwd: "/p", home: "/h" })).toThrow(
      "username, password, projectName not given: set OS_USERNAME or clusterform:senlinUsername, OS_PASSWORD or clusterform:senlinPassword, OS_PROJECT_NAME or clusterform:senlinProjectName",
    );
  });

  it("looks for Keystone at the shared endpoint when no auth URL is given, and for Senlin in the catalog", () => {
    const s = resolveOpenStackSettings("senlin", config({ "clusterform:endpoint": "http://127.0.0.1:9400/" }), { env: { ...ENV, OS_AUTH_URL: undefined }, read: noFiles });
    expect([s.credentials.authUrl, s.endpoint]).toEqual(["http://127.0.0.1:9400", undefined]);
  });

  it("takes an explicit Senlin endpoint from clusterform:senlinEndpoint", () => {
    const s = resolveOpenStackSettings("senlin", config({ "clusterform:senlinEndpoint": "http://senlin:8777/" }), { env: ENV, read: noFiles });
    expect(s.endpoint).toBe("http://senlin:8777");
  });
});
