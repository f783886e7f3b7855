import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupPreviews, ownErrorLines } from "../harness/bad-inputs";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";

const vc = (patch: Record<string, unknown>) => ({ vc: { namespace: "team-a", ...patch }, snapshot: undefined });
const QTY = /Kubernetes quantity.*such as "500m" or "1Gi"/;
const CIDR = /CIDR notation/;

/**
 * Bad inputs previewed together. The provider's check reports every failure of a resource at
 * once, but Pulumi stops at the first resource whose check fails (and the snapshot waits for its
 * vcluster), so a group holds bad fields of one resource. No two inputs of a group share a field.
 * Unique plugin names and the reserved label are checked only when the plugins, the labels, are
 * otherwise valid; a missing namespace prints `{<nil>}`, which no other input may show, so it
 * goes alone.
 */
interface Group {
  /** The stack config of the group's preview. */
  config: Record<string, unknown>;
  /** The resource whose check fails. */
  resource: string;
  /** A bad input, the field the error must name, and text of the reason (value received, what is allowed). */
  inputs: [string, string, RegExp][];
}

const groups: Group[] = [
  {
    config: { vc: {}, snapshot: undefined },
    resource: "main",
    inputs: [["a missing namespace", "namespace", /namespace is required/]],
  },
  {
    config: vc({
      namespace: "Team_A",
      name: "dev.1",
      distro: "k9s",
      replicas: 0,
      resources: { cpuRequest: "500mm", memoryLimit: "1 Gi", memoryRequest: "-512Mi" },
      network: { podCidr: "10.42.0.0", serviceCidr: "10.96.0.0/33", dnsServiceIp: "kube-dns" },
      storage: { persistenceSize: "big" },
      isolationMode: "strict",
      kubernetesVersion: "1.29",
      labels: { owner: "bob" },
      suspended: "yes",
      plugins: [{ name: "a" }, { name: "a" }],
      region: "eu",
    }),
    resource: "main",
    inputs: [
      ["a namespace with capitals and '_'", "namespace", /DNS-1123 label.*got "Team_A"/],
      ["a name with a dot", "name", /DNS-1123 label.*got "dev\.1"/],
      ["a distro that does not exist", "distro", /one of "k3s", "k8s", "k0s" or "eks", got "k9s"/],
      ["zero replicas", "replicas", /integer between 1 and 9, got 0/],
      ["a CPU request with a doubled suffix", "resources.cpuRequest", QTY],
      ["a memory limit with a space", "resources.memoryLimit", QTY],
      ["a negative memory request", "resources.memoryRequest", QTY],
      ["a pod CIDR without a prefix length", "network.podCidr", CIDR],
      ["a service CIDR with a prefix over 32", "network.serviceCidr", CIDR],
      ["a DNS service address that is a name", "network.dnsServiceIp", /IPv4 or IPv6 address.*got "kube-dns"/],
      ["a persistence size that is a word", "storage.persistenceSize", QTY],
      ["an isolation mode that does not exist", "isolationMode", /one of "full" or "lite", got "strict"/],
      ["a Kubernetes version without a patch number", "kubernetesVersion", /MAJOR\.MINOR\.PATCH.*got "1\.29"/],
      ["the reserved label `owner`", "labels", /reserved: it carries the `owner` argument/],
      ["suspended given as a string", "suspended", /must be a boolean, got "yes"/],
      ["duplicate plugin names", "plugins[1].name", /unique among plugins/],
      ["a field vcluster does not have", "region", /is not a known field/],
    ],
  },
  {
    config: vc({ replicas: 2.5, owner: "Alice Smith" }),
    resource: "main",
    inputs: [
      ["fractional replicas", "replicas", /integer between 1 and 9, got 2\.5/],
      ["an owner with a space", "vclusterOwner", /\(the `owner` argument\) must be a Kubernetes label value.*got "Alice Smith"/],
    ],
  },
  {
    config: { ...vc({}), snapshot: { retentionHours: 9000 } },
    resource: "snap",
    inputs: [["a snapshot retention above a year", "retentionHours", /integer between 0 and 8760, got 9000/]],
  },
];

const badInputs = groups.flatMap((group) => group.inputs.map(([what, field, reason]) => [what, group, field, reason] as const));

describe("vcluster: bad input is rejected at preview, naming the field, before any API call", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await openTestStack({ program: "vcluster", workspace: "vcluster-validation", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  // The first `it` of a group runs its preview; the others of the group read the same result.
  const previewOf = groupPreviews<Group>(
    () => t,
    async (group) => {
      await t.configure(group.config);
    },
  );

  it.each(badInputs)("rejects %s", async (_what, group, field, reason) => {
    const { failure, calls } = await previewOf(group);
    expect(failure).toBeDefined();
    const named = new RegExp(`has a problem: ${field.replace(/[.[\]]/g, "\\$&")}[ \\[(]`);
    expect(failure).toMatch(named);
    // Pulumi prints a missing top-level value as `{<nil>}`; a value given must never print so.
    if (!reason.source.includes("is required")) expect(failure).not.toContain("<nil>");
    expect(failure).toMatch(reason);
    // The same on this input's own messages: those of the resource that name the field.
    const own = ownErrorLines(failure, group.resource, named);
    expect(own).toMatch(reason);
    expect(calls).toEqual([]);
  });

  it("accepts the quantities 500m and 1Gi and previews a create without any API call", async () => {
    await t.configure(vc({ resources: { cpuRequest: "500m", memoryLimit: "1Gi" }, network: { podCidr: "10.42.0.0/16" } }));
    const since = await t.plane.lastSeq();
    const preview = await t.stack.preview();
    expect(preview.steps.filter((s) => s.name === "main").map((s) => s.op)).toEqual(["create"]);
    expect(await t.plane.audit(since)).toEqual([]);
  });
});
