const q = (s: string) => JSON.stringify(s);

/** Operation descriptions for errors, e.g. `ScaleVCluster vcluster "team-a/dev"`. */
export function onVCluster(method: string, namespace: string | undefined, name: string | undefined): string {
  return `${method} vcluster ${q(`${namespace ?? ""}/${name ?? ""}`)}`;
}

/** Operation descriptions for snapshot calls, e.g. `DeleteSnapshot snapshot "snap-1-2"`. */
export function onSnapshot(method: string, key: string): string {
  return `${method} snapshot ${q(key)}`;
}
