import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { providerSource } from "./internal/resource";

type Registered = pulumi.runtime.MockResourceArgs;
const registered: Registered[] = [];

// Imported after the mocks are set, so every resource registers with them.
let sdk: typeof import("./index");
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    true,
  );
  sdk = await import("./index");
});

/** The resource's registration, once Pulumi has sent it. */
async function registrationOf(resource: pulumi.CustomResource): Promise<Registered> {
  const urn = await new Promise<string>((resolve) => resource.urn.apply(resolve));
  const found = registered.find((r) => urn.endsWith(`::${r.name}`) && urn.includes(`::${r.type}::`));
  if (!found) throw new Error(`no registration for ${urn}`);
  return found;
}

describe("every resource class", () => {
  const cases: [string, () => pulumi.CustomResource][] = [
    ["cmassh:Cluster", () => new sdk.cmassh.Cluster("c", { kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } })],
    ["cmassh:NodePool", () => new sdk.cmassh.NodePool("p", { clusterName: "c", instanceType: "standard", count: 1 })],
    ["cyclecloud:NodePool", () => new sdk.cyclecloud.NodePool("n", { clusterName: "demo", nodearray: "execute", count: 1 })],
    ["senlin:Cluster", () => new sdk.senlin.Cluster("s", { profile: "web-profile" })],
    ["peloton:ResourcePool", () => new sdk.peloton.ResourcePool("r", {})],
    ["peloton:StatelessJob", () => new sdk.peloton.StatelessJob("j", { respoolId: "r", instanceCount: 1, defaultSpec: { containers: [] } })],
    ["vcluster:VCluster", () => new sdk.vcluster.VCluster("v", { namespace: "ns" })],
    ["vcluster:Snapshot", () => new sdk.vcluster.Snapshot("snap", { vclusterName: "v", namespace: "ns" })],
  ];

  it.each(cases)("registers %s as the dynamic type pulumi.dynamic.Resource gave, with the one-line __provider text", async (type, make) => {
    const resource = make();
    const registration = await registrationOf(resource);
    expect(registration.type).toBe(`pulumi-nodejs:dynamic/${type}`);
    expect(registration.inputs.__provider).toBe(providerSource("clusterform/provider", type));
    expect(registration.custom).toBe(true);
  });

  it("refuses a __provider among the props, naming the resource", async () => {
    const { DynamicResource } = await import("./internal/resource");
    class Bad extends DynamicResource {
      constructor() {
        super("test:Bad", "bad", { __provider: "exports.handler = () => ({})" });
      }
    }
    expect(() => new Bad()).toThrow('test:Bad "bad": a dynamic resource must not define the __provider input');
  });
});

describe("the native classes (clusterform/native)", () => {
  it("register the plugin's tokens with the Pulumi names, no hidden inputs and no __provider", async () => {
    const native = await import("./native");
    const job = new native.peloton.StatelessJob("nj", { respoolId: "r", instanceCount: 1, defaultSpec: { containers: [] }, owner: "team-a" });
    const registration = await registrationOf(job);
    expect(registration.type).toBe("clusterform:peloton:StatelessJob");
    expect(registration.inputs).toMatchObject({ respoolId: "r", instanceCount: 1, owner: "team-a" });
    for (const hidden of ["__provider", "jobOwner", "resourceName", "resourceUrn", "deleteBeforeReplace"]) {
      expect(registration.inputs).not.toHaveProperty(hidden);
    }
  });

  it("every kind has a native class under its platform, and every lookup a function and its Output form", async () => {
    const native = await import("./native");
    const exported = Object.entries(native)
      .filter(([name]) => name !== "Provider")
      .flatMap(([module, exports]) => Object.keys(exports as object).map((name) => `${module}:${name}`));
    const { KIND_TYPES, allKinds } = await import("../provider/kinds");
    expect(exported.filter((e) => !/:get/.test(e)).sort()).toEqual([...KIND_TYPES].sort());
    const lookups = (await allKinds()).flatMap((k) => (k.lookups ?? []).flatMap((l) => [`${k.type.split(":")[0]}:${l.name}`, `${k.type.split(":")[0]}:${l.name}Output`]));
    expect(exported.filter((e) => /:get/.test(e)).sort()).toEqual(lookups.sort());
  });

  it("keeps an explicit provider's credentials secret", async () => {
    const native = await import("./native");
    const provider = new native.Provider("p", { endpoint: "http://127.0.0.1:9020", senlinPassword: "s3cret" });
    const registration = await registrationOf(provider as unknown as pulumi.CustomResource);
    expect(registration.type).toBe("pulumi:providers:clusterform");
    expect(pulumi.isSecret(registration.inputs.senlinPassword) || JSON.stringify(registration.inputs).includes("4dabf18193072939515e22adb298388d")).toBe(true);
  });
});

describe("the provider's own inputs of a dynamic resource", () => {
  it("are each explained in docs/lifecycle.md, where users look when `pulumi preview --diff` shows them", async () => {
    const { HIDDEN_INPUTS } = await import("./internal/resource");
    const doc = (await import("node:fs")).readFileSync(`${__dirname}/../docs/lifecycle.md`, "utf8");
    for (const field of HIDDEN_INPUTS.filter((f) => f !== "__provider")) expect(doc, field).toMatch(new RegExp(`^\\| \`${field}\` \\| `, "m"));
  });
});
