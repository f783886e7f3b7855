import type { ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdapterPlane, auditSeq, startStuckPlane, untilWritten, type WaitingCase } from "../testing";
import { failuresOf, initFailureOf, type NativeServer, propsOf, secret, startNativeServer } from "./testing";

// The plugin's Cancel and request timeouts, through its gRPC service in this process, against a
// plane whose operations never end by themselves (time scale 1 on a clock that stands still): a
// create that waits for its object is in flight until the engine cancels it or its time runs out.
// Cancel ends every wait of the process for good (the engine then stops the plugin), so it comes
// last in this file, which has a process of its own.

type Props = Record<string, unknown>;

let plane: AdapterPlane & { cases: WaitingCase[] };
let server: NativeServer;
let configArgs: Props;
beforeAll(async () => {
  [plane, server] = await Promise.all([startStuckPlane(), startNativeServer()]);
  const { cyclecloudPassword, senlinPassword, ...plain } = plane.settings;
  configArgs = { ...plain, cyclecloudPassword: secret(cyclecloudPassword), senlinPassword: secret(senlinPassword) };
});
afterAll(async () => {
  server?.close();
  await plane?.close();
});

const urnOf = (c: WaitingCase, stack: string) => `urn:pulumi:${stack}::inproc::clusterform:${c.type}::waiting`;
/** Fields whose Pulumi name is another than their definition key. */
const PULUMI_NAMES: Readonly<Record<string, string>> = { jobOwner: "owner" };
const renamed = (props: Props) => Object.fromEntries(Object.entries(props).map(([k, v]) => [PULUMI_NAMES[k] ?? k, v]));

/** Check, then a Create sent with `timeoutSeconds`: the Create's outcome (an error expected), once sent. */
async function startCreate(c: WaitingCase, stack: string, timeoutSeconds: number, patch: Props = {}): Promise<{ outcome: Promise<ServiceError> }> {
  await server.newRun(stack, configArgs);
  const checked = await server.check(urnOf(c, stack), {}, renamed({ ...c.program, ...patch }));
  expect(failuresOf(checked)).toEqual([]);
  const outcome = server.create(urnOf(c, stack), propsOf(checked.getInputs()), timeoutSeconds).then(
    (res) => {
      throw new Error(`the create answered ${res.getId()}: its operation was not in flight`);
    },
    (err: ServiceError) => err,
  );
  return { outcome };
}

describe("Create requests whose operation stays in flight", () => {
  it("ends at the request's own timeout (customTimeouts), naming the limit", async () => {
    const c = plane.cases.find((w) => w.type === "cmassh:Cluster")!;
    const err = await (await startCreate(c, "native-timeout", 1, { name: "slow-timeout" })).outcome;
    expect(err.details).toMatch(/^GetCluster cluster "slow-timeout": TIMEOUT: not done after 1s \(timeout 1s\); .*the cluster was created and is recorded in the stack/);
    // Recorded: the error carries the object (ErrorResourceInitFailed), so the engine keeps it in the state.
    expect(initFailureOf(err)).toMatchObject({ id: "slow-timeout", properties: { name: "slow-timeout", kubernetesVersion: "1.31.6" } });
  });

  it("ends at once, every one of them, when the engine sends Cancel: one kind of each platform", async () => {
    const since = await auditSeq(plane.t);
    const started = await Promise.all(plane.cases.map((c) => startCreate(c, `native-cancel-${c.api}`, 600)));
    // Each create's operation is under way on the platform (which never finishes it) when Cancel comes.
    await Promise.all(plane.cases.map((c) => untilWritten(plane.t, c.api, since, c.createWrite)));
    await server.cancel();
    const errors = await Promise.all(started.map((s) => s.outcome));
    for (const [i, c] of plane.cases.entries()) {
      expect(errors[i].details, c.type).toContain("CANCELED: the Pulumi engine canceled the operation (Ctrl-C or `pulumi cancel`); run `pulumi up` again to converge");
    }
  });
});
