import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ConfigReader } from "../core/config";
import { cyclecloudNodePool } from "./cyclecloud/node-pool/kind";
import { pelotonClient } from "./peloton/common";
import { pelotonResourcePool } from "./peloton/resource-pool/kind";
import { pelotonStatelessJob } from "./peloton/stateless-job/kind";
import { senlinCluster } from "./senlin/cluster/kind";
import { planeConfig, refusedUrl, testHandler } from "./testing";
import { vclusterClient } from "./vcluster/common";
import { vclusterVCluster } from "./vcluster/vcluster/kind";

// A create of each platform's kinds against an endpoint nothing listens on ends at the stack's
// clusterform:unreachableTimeout, however long the create's own timeout, with the call, its object,
// the address and the limit in the message: the gRPC caller (Peloton, vcluster; cma-ssh in
// cmassh/platform-access.test.ts) and the REST caller (CycleCloud, Senlin with Keystone first).

type Props = Record<string, unknown>;

const identity = (resourceName: string): Props => ({ __provider: "p", owner: "0123456789abcdef", resourceName });
/** The create's own timeout: only the unreachable limit can end it within the test's time (15 s). */
const LONG = { timeouts: { create: "30m" } };

let url: string;
let config: ConfigReader;

/**
 * Each case: the kind, its handler, the inputs of its create, and the start of the failure: the
 * call and its object (Senlin's is Keystone's authentication, which comes first), then what the
 * caller says of the address (the gRPC and CycleCloud callers name the endpoint; Keystone's URL is
 * in the call).
 */
const cases: [string, ReturnType<typeof testHandler>, Props, string][] = [
  ["vcluster:VCluster", testHandler(vclusterVCluster), { ...identity("main"), namespace: "team-a", ...LONG }, 'GetVCluster vcluster "team-a/main-[0-9a-f]{7}": UNREACHABLE: cannot reach URL: '],
  [
    "peloton:ResourcePool",
    testHandler(pelotonResourcePool),
    { ...identity("compute"), name: "compute", resources: [{ kind: "cpu", reservation: 1, limit: 2 }], ...LONG },
    'GetResourcePool pool "[0-9a-f-]{36}": UNREACHABLE: cannot reach URL: ',
  ],
  [
    "peloton:StatelessJob",
    testHandler(pelotonStatelessJob),
    {
      ...identity("web"),
      respoolId: "00000000-0000-4000-8000-000000000000",
      instanceCount: 1,
      defaultSpec: { containers: [{ name: "web", image: "nginx:1", resources: { cpu: 0.5, memoryMb: 64 } }] },
      ...LONG,
    },
    'GetJob job "[0-9a-f-]{36}": UNREACHABLE: cannot reach URL: ',
  ],
  [
    "cyclecloud:NodePool",
    testHandler(cyclecloudNodePool),
    { ...identity("workers"), clusterName: "demo", nodearray: "execute", count: 1, ...LONG },
    'GetClusterStatus cluster "demo": UNREACHABLE: cannot reach URL: ',
  ],
  [
    "senlin:Cluster",
    testHandler(senlinCluster),
    { ...identity("web"), name: "web", profile: "small", actionTimeout: "30m", ...LONG },
    'authenticating user "admin" in project "admin" at URL/v3: UNREACHABLE: ',
  ],
];

describe("a create against an unreachable endpoint fails after clusterform:unreachableTimeout, whatever its own timeout", () => {
  beforeAll(async () => {
    vi.stubEnv("CLUSTERFORM_VCLUSTER_ENDPOINT", "");
    vi.stubEnv("CLUSTERFORM_PELOTON_ENDPOINT", "");
    vi.stubEnv("CLUSTERFORM_SENLIN_ENDPOINT", "");
    vi.stubEnv("CLUSTERFORM_CYCLECLOUD_ENDPOINT", "");
    url = await refusedUrl();
    config = planeConfig(url, { "clusterform:unreachableTimeout": "1s" });
    for (const [, handler] of cases) await handler.configure(config);
  });
  afterAll(async () => {
    (await vclusterClient(config)).close();
    (await pelotonClient(config)).close();
    vi.unstubAllEnvs();
  });

  it.concurrent.each(cases)("%s names the call, its object, the address and the limit", async (_, handler, raw, start) => {
    const { inputs, failures } = await handler.check({}, raw);
    expect(failures).toEqual([]);
    const started = performance.now();
    const err = await handler.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "Unavailable", platformCode: "UNREACHABLE" });
    const address = url.replace(/\./g, "\\.");
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${start.replace(/URL/g, address)}connect ECONNREFUSED ${address.replace("http://", "")} \\(ECONNREFUSED\\); ` +
          "still unreachable after \\d+(ms|s), giving up \\(limit 1s, set by clusterform:unreachableTimeout\\)$",
      ),
    );
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
