import { randomBytes } from "node:crypto";
import type { ApiServerAccess } from "../kubernetes/host";

function clusterLines(clusterName: string, api: ApiServerAccess | undefined): string[] {
  if (!api) return [`    server: https://${clusterName}.cmassh.clusterform.local:6443`, "    insecure-skip-tls-verify: true"];
  return [`    server: ${api.server}`, `    certificate-authority-data: ${api.certificateAuthorityData}`];
}

/** A fresh bearer token, unique per cluster, in the shape of a service-account secret. */
export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/**
 * The admin kubeconfig of an emulated cluster. Without `api` (no `--kubernetes`) the API server
 * address is fictitious; with it, the kubeconfig reaches the cluster's real API server and trusts its CA.
 */
export function renderKubeconfig(clusterName: string, token: string, api?: ApiServerAccess): string {
  const user = `${clusterName}-admin`;
  const context = `${user}@${clusterName}`;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${clusterName}`,
    "  cluster:",
    ...clusterLines(clusterName, api),
    "contexts:",
    `- name: ${context}`,
    "  context:",
    `    cluster: ${clusterName}`,
    `    user: ${user}`,
    `current-context: ${context}`,
    "preferences: {}",
    "users:",
    `- name: ${user}`,
    "  user:",
    `    token: ${token}`,
    "",
  ].join("\n");
}
