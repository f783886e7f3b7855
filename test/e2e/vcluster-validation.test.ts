import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";

const vc = (patch: Record<string, unknown>) => ({ vc: { namespace: "team-a", ...patch }, snapshot: undefined });
const QTY = /Kubernetes quantity.*such as "500m" or "1Gi"/;
const CIDR = /CIDR notation/;

/** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
const badInputs: [string, Record<string, unknown>, string, RegExp][] = [
  ["a missing namespace", { vc: {} }, "namespace", /namespace is required/],
  ["a namespace with capitals and '_'", vc({ namespace: "Team_A" }), "namespace", /DNS-1123 label.*got "Team_A"/],
  ["a name with a dot", vc({ name: "dev.1" }), "name", /DNS-1123 label.*got "dev\.1"/],
  ["a distro that does not exist", vc({ distro: "k9s" }), "distro", /one of "k3s", "k8s", "k0s" or "eks", got "k9s"/],
  ["zero replicas", vc({ replicas: 0 }), "replicas", /integer between 1 and 9, got 0/],
  ["fractional replicas", vc({ replicas: 2.5 }), "replicas", /integer between 1 and 9, got 2\.5/],
  ["a CPU request with a doubled suffix", vc({ resources: { cpuRequest: "500mm" } }), "resources.cpuRequest", QTY],
  ["a memory limit with a space", vc({ resources: { memoryLimit: "1 Gi" } }), "resources.memoryLimit", QTY],
  ["a negative memory request", vc({ resources: { memoryRequest: "-512Mi" } }), "resources.memoryRequest", QTY],
  ["a pod CIDR without a prefix length", vc({ network: { podCidr: "10.42.0.0" } }), "network.podCidr", CIDR],
  ["a service CIDR with a prefix over 32", vc({ network: { serviceCidr: "10.96.0.0/33" } }), "network.serviceCidr", CIDR],
  ["a DNS service address that is a name", vc({ network: { dnsServiceIp: "kube-dns" } }), "network.dnsServiceIp", /IPv4 or IPv6 address.*got "kube-dns"/],
  ["a persistence size that is a word", vc({ storage: { persistenceSize: "big" } }), "storage.persistenceSize", QTY],
  ["an isolation mode that does not exist", vc({ isolationMode: "strict" }), "isolationMode", /one of "full" or "lite", got "strict"/],
  ["a Kubernetes version without a patch number", vc({ kubernetesVersion: "1.29" }), "kubernetesVersion", /MAJOR\.MINOR\.PATCH.*got "1\.29"/],
  ["the reserved label `owner`", vc({ labels: { owner: "bob" } }), "labels", /reserved: it carries the `owner` argument/],
  ["an owner with a space", vc({ owner: "Alice Smith" }), "vclusterOwner", /\(the `owner` argument\) must be a Kubernetes label value.*got "Alice Smith"/],
  ["suspended given as a string", vc({ suspended: "yes" }), "suspended", /must be a boolean, got "yes"/],
  ["duplicate plugin names", vc({ plugins: [{ name: "a" }, { name: "a" }] }), "plugins[1].name", /unique among plugins/],
  ["a field vcluster does not have", vc({ region: "eu" }), "region", /is not a known field/],
  ["a snapshot retention above a year", { ...vc({}), snapshot: { retentionHours: 9000 } }, "retentionHours", /integer between 0 and 8760, got 9000/],
];

describe("vcluster: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openTestStack({ program: "vcluster", workspace: "vcluster-validation", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it.each(badInputs)("rejects %s", async (_what, change, field, reason) => {
    await t.configure(change);
    const since = await t.plane.lastSeq();
    const failure = await t.stack.preview().then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toBeDefined();
    expect(failure).toMatch(new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[(]`));
    // Pulumi prints a missing top-level value as `{<nil>}`; a value given must never print so.
    if (!reason.source.includes("is required")) expect(failure).not.toContain("<nil>");
    expect(failure).toMatch(reason);
    expect(await t.plane.audit(since)).toEqual([]);
  });

  it("accepts the quantities 500m and 1Gi and previews a create without any API call", async () => {
    await t.configure(vc({ resources: { cpuRequest: "500m", memoryLimit: "1Gi" }, network: { podCidr: "10.42.0.0/16" } }));
    const since = await t.plane.lastSeq();
    const preview = await t.stack.preview();
    expect(preview.steps.filter((s) => s.name === "main").map((s) => s.op)).toEqual(["create"]);
    expect(await t.plane.audit(since)).toEqual([]);
  });
});
