import { randomBytes } from "node:crypto";

/** A fresh bearer token, unique per cluster, in the shape of a service-account secret. */
export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/** The admin kubeconfig of an emulated cluster. The API server address is fictitious. */
export function renderKubeconfig(clusterName: string, token: string): string {
  const user = `${clusterName}-admin`;
  const context = `${user}@${clusterName}`;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${clusterName}`,
    "  cluster:",
    `    server: https://${clusterName}.cmassh.clusterform.local:6443`,
    "    insecure-skip-tls-verify: true",
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
