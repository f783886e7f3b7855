import { clone, create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { type VClusterSpec, VClusterSpecSchema } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const KUBERNETES_VERSION = /^v?\d+\.\d+\.\d+$/;
const LABEL_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const LABEL_PREFIX = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** The reference server's defaults for an empty spec field. */
export const SPEC_DEFAULTS = { kubernetesVersion: "1.28.0", distro: "k3s", replicas: 1 } as const;

/** The distros and isolation modes the spec document names. */
const ALLOWED_TEXT: ReadonlyArray<readonly [keyof VClusterSpec & string, string, readonly string[]]> = [
  ["distro", "spec.distro", ["k3s", "k8s", "k0s", "eks"]],
  ["isolationMode", "spec.isolation_mode", ["", "full", "lite"]],
];

/** INVALID_ARGUMENT naming the field, the value received and what is allowed. */
export function invalidArgument(field: string, value: unknown, allowed: string): ConnectError {
  return new ConnectError(`invalid ${field} ${JSON.stringify(value)}: ${allowed}`, Code.InvalidArgument);
}

/** NOT_FOUND for a vcluster or snapshot. */
export function notFound(kind: string, key: string): ConnectError {
  return new ConnectError(`${kind} ${JSON.stringify(key)} not found`, Code.NotFound);
}

/** ALREADY_EXISTS for a vcluster or snapshot. */
export function alreadyExists(kind: string, key: string): ConnectError {
  return new ConnectError(`${kind} ${JSON.stringify(key)} already exists`, Code.AlreadyExists);
}

/** FAILED_PRECONDITION for a call the resource's current state does not allow. */
export function failedPrecondition(message: string): ConnectError {
  return new ConnectError(message, Code.FailedPrecondition);
}

/**
 * Throws INVALID_ARGUMENT unless `value` is a DNS-1123 label: vcluster makes a Helm release and
 * Kubernetes objects of the name and namespace. An empty name gets the reference server's message.
 */
export function assertDnsLabel(field: string, value: string): void {
  if (value === "") throw new ConnectError(`${field} is required`, Code.InvalidArgument);
  if (value.length <= 63 && DNS1123_LABEL.test(value)) return;
  throw invalidArgument(field, value, "must be a DNS-1123 label (1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit)");
}

/** Whether `key` is a Kubernetes label key: an optional DNS-subdomain prefix and a name of up to 63 characters. */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !LABEL_PREFIX.test(prefix))) return false;
  return name.length <= 63 && LABEL_NAME.test(name);
}

/** Throws INVALID_ARGUMENT for a label key or value Kubernetes would reject. */
export function assertLabels(field: string, labels: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(labels)) {
    if (!isLabelKey(key)) throw invalidArgument(`${field} key`, key, "must be a Kubernetes label key ([prefix/]name, name up to 63 letters, digits, '-', '_' or '.')");
    if (value !== "" && (value.length > 63 || !LABEL_NAME.test(value))) {
      throw invalidArgument(`${field}[${JSON.stringify(key)}]`, value, "must be empty or up to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
    }
  }
}

/** A copy of `spec` with the reference server's defaults filled in, validated. */
export function normalizeSpec(spec: VClusterSpec | undefined): VClusterSpec {
  const out = spec ? clone(VClusterSpecSchema, spec) : create(VClusterSpecSchema);
  out.kubernetesVersion ||= SPEC_DEFAULTS.kubernetesVersion;
  out.distro ||= SPEC_DEFAULTS.distro;
  if (out.replicas < 0) throw invalidArgument("spec.replicas", out.replicas, "must be 0 (default 1) or more");
  out.replicas ||= SPEC_DEFAULTS.replicas;
  if (!KUBERNETES_VERSION.test(out.kubernetesVersion)) {
    throw invalidArgument("spec.kubernetes_version", out.kubernetesVersion, "must be x.y.z, e.g. 1.28.0");
  }
  for (const [key, field, allowed] of ALLOWED_TEXT) {
    const value = out[key] as string;
    if (!allowed.includes(value)) throw invalidArgument(field, value, `allowed: ${allowed.map((a) => JSON.stringify(a)).join(", ")}`);
  }
  return out;
}
