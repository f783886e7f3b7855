import { createHash } from "node:crypto";
import type { VClusterRef } from "../../../clients/vcluster/requests";
import type { VClusterSpec, VClusterState } from "../../../clients/vcluster/types";
import { seedValues } from "../../fields";
import { type VClusterInputs, vclusterKind } from "./schema";

type Props = Record<string, unknown>;

/** The fields of the inputs that make up the spec sent to the platform (inputs of the same name). */
export const SPEC_FIELDS = [
  "kubernetesVersion",
  "distro",
  "replicas",
  "enableHa",
  "resources",
  "network",
  "storage",
  "sync",
  "plugins",
  "ingress",
  "serviceAccount",
  "isolationMode",
  "helmValues",
] as const satisfies readonly (keyof VClusterSpec & keyof VClusterInputs)[];

/** The vcluster's key on the platform. */
export function refOf(inputs: Props): VClusterRef {
  return { name: String(inputs.name), namespace: String(inputs.namespace) };
}

/** The spec the inputs ask for; fields the user left out are left to the server's defaults. */
export function specOf(inputs: VClusterInputs): VClusterSpec {
  const spec: Record<string, unknown> = {};
  for (const field of SPEC_FIELDS) if (inputs[field] !== undefined) spec[field] = inputs[field];
  return spec as VClusterSpec;
}

/**
 * The create's request id: a hash of the resource's identity, so the create an interrupted run sent
 * and the one the next run sends are one request to a server that honours ids.
 */
export function requestIdOf(inputs: VClusterInputs & Props): string {
  // The fields that force replacement are in the seed, so a replacement they cause (same name,
  // deleted first) sends a new id rather than one the server answers with the deleted vcluster.
  const seed = JSON.stringify([inputs.owner, inputs.namespace, inputs.name, ...seedValues(vclusterKind, inputs)]);
  return `clusterform-${createHash("sha256").update(seed).digest("hex").slice(0, 32)}`;
}

/**
 * The outputs recorded in state. The kubeconfig is only served while RUNNING, so a suspended
 * vcluster keeps the one seen last.
 */
export function outputsOf(state: VClusterState, previousKubeconfig = ""): Props {
  return {
    vclusterId: state.id,
    phase: state.phase,
    apiServerEndpoint: state.apiServerEndpoint,
    kubeconfig: state.kubeconfig || previousKubeconfig,
    readyReplicas: state.readyReplicas,
    helmRelease: state.helmRelease,
    conditions: state.conditions,
  };
}

/**
 * What a refresh reports beyond the outputs: only drift of the fields Clusterform changes by action
 * (suspended, replicas), so an untouched vcluster refreshes to exactly its state.
 */
export function driftOf(state: VClusterState, props: Props): Props {
  const drift: Props = {};
  const suspended = state.phase === "SUSPENDED";
  if (suspended !== (props.suspended === true)) drift.suspended = suspended;
  const replicas = typeof props.replicas === "number" ? props.replicas : 1;
  if (state.spec.replicas && state.spec.replicas !== replicas) drift.replicas = state.spec.replicas;
  return drift;
}
