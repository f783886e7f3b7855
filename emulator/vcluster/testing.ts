import { type Client, type Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { SnapshotService, VClusterService } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { LocalControlPlaneOptions } from "../server";
import type { FakeClock } from "../clock";
import { startTestPlane, type TestPlane } from "../testing";

/** A test control plane with typed gRPC clients of both vcluster services. */
export interface VclusterTestPlane extends TestPlane {
  vc: Client<typeof VClusterService>;
  snap: Client<typeof SnapshotService>;
}

/** Starts a control plane for a vcluster test (fake clock, port 0, fresh data directory unless given). */
export async function startVclusterPlane(opts: Partial<LocalControlPlaneOptions> & { clock?: FakeClock } = {}): Promise<VclusterTestPlane> {
  const t = await startTestPlane(opts);
  const transport = createGrpcTransport({ baseUrl: t.plane.url });
  return { ...t, vc: createClient(VClusterService, transport), snap: createClient(SnapshotService, transport) };
}

/** The gRPC code a call ended with, `"OK"` on success. */
export async function codeOf(call: Promise<unknown>): Promise<Code | "OK"> {
  try {
    await call;
    return "OK";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

/** The error a call failed with; fails the test when the call succeeds. */
export async function errorOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error("expected the call to fail");
}
