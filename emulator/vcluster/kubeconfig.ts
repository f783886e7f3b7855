import { randomBytes } from "node:crypto";
import type { ApiServerAccess } from "../kubernetes/host";

/** A fresh bearer token in the shape of a service-account secret. */
export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/** How the kubeconfig's user authenticates. */
export type KubeconfigUser =
  | { kind: "token"; token: string }
  | { kind: "exec"; name: string; namespace: string };

function userLines(user: KubeconfigUser): string[] {
  if (user.kind === "token") return ["  user:", `    token: ${user.token}`];
  // The exec form asks the vcluster CLI for a token at use time, so it holds no secret.
  return [
    "  user:",
    "    exec:",
    "      apiVersion: client.authentication.k8s.io/v1",
    "      command: vcluster",
    "      args:",
    "      - token",
    "      - --name",
    `      - ${user.name}`,
    "      - --namespace",
    `      - ${user.namespace}`,
    "      interactiveMode: Never",
  ];
}

/**
 * A kubeconfig document for a vcluster; the API server address is the cluster's endpoint. With a
 * real API server (`api`, from `--kubernetes`) it trusts that server's CA instead of skipping TLS checks.
 */
export function renderKubeconfig(name: string, namespace: string, endpoint: string, user: KubeconfigUser, api?: ApiServerAccess): string {
  const cluster = `vcluster_${name}_${namespace}`;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${cluster}`,
    "  cluster:",
    `    server: ${endpoint}`,
    api ? `    certificate-authority-data: ${api.certificateAuthorityData}` : "    insecure-skip-tls-verify: true",
    "contexts:",
    `- name: ${cluster}`,
    "  context:",
    `    cluster: ${cluster}`,
    `    user: ${cluster}`,
    `current-context: ${cluster}`,
    "preferences: {}",
    "users:",
    `- name: ${cluster}`,
    ...userLines(user),
    "",
  ].join("\n");
}

/** Base64 of text, as the API carries kubeconfigs. */
export function toBase64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

/**
 * The API server endpoint: the real API server's address with `--kubernetes`, else the ingress
 * hostname when the ingress is enabled with one, else the in-cluster service address the reference
 * server reports.
 */
export function apiServerEndpoint(
  name: string,
  namespace: string,
  ingress: { enabled: boolean; hostname: string } | undefined,
  api?: ApiServerAccess,
): string {
  // A real API server listens on the loopback whatever the ingress says: that is where clients must go.
  if (api) return api.server;
  if (ingress?.enabled && ingress.hostname) return `https://${ingress.hostname}`;
  return `https://${name}.${namespace}.svc:443`;
}
