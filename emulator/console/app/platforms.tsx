import { membershipProgress } from "./senlin-progress";
import { Progress, percentOf, Status, Table, elapsedShare } from "./widgets";
import {
  type ApiServers,
  type CmasshCluster,
  type ConsoleState,
  type CycleCloudCluster,
  type CycleCloudNode,
  listOf,
  type Named,
  type PelotonJob,
  type PelotonPool,
  type SenlinAction,
  type SenlinCluster,
  type SenlinNode,
  type SenlinPolicy,
  type SenlinReceiver,
  type VCluster,
  type VSnapshot,
} from "./types";

/** Whether the plane runs a Kubernetes API per cluster (`--kubernetes`): then kubeconfigs can be downloaded. */
function runsKubernetes(state: ConsoleState): boolean {
  return (state.views["/_local/kubernetes/api-servers"] as ApiServers | undefined) !== undefined;
}

function Download({ query, name }: { query: string; name: string }) {
  return (
    <a class="button" href={`/_local/console/kubeconfig?${query}`} download={`${name}.kubeconfig`} aria-label={`Download the kubeconfig of ${name}`}>
      kubeconfig
    </a>
  );
}

export function CmasshPanel({ state }: { state: ConsoleState }) {
  const clusters = listOf<CmasshCluster>(state, "/_local/cmassh/clusters", "clusters");
  const k8s = runsKubernetes(state);
  return (
    <Table
      caption="cma-ssh clusters"
      headers={["cluster", "status", "version", "control plane", "node pools", "operations in flight", ...(k8s ? ["kubeconfig"] : [])]}
      rows={clusters.map((c) => [
        <strong>{c.name}</strong>,
        <>
          <Status value={c.status} /> {c.statusMessage}
        </>,
        c.k8sVersion,
        `${c.controlPlane.count} × ${c.controlPlane.instanceType}`,
        c.pools.map((p) => `${p.name}: ${p.count} × ${p.instanceType}`).join(", ") || "none",
        c.operations.map((op) => {
          const share = elapsedShare(op.startedAt, op.endsAt, state.now);
          return (
            <Progress
              key={op.startedAt + op.kind}
              label={`${op.kind} of cluster ${c.name}`}
              value={share}
              detail={`${op.version ? `${op.kind} to ${op.version}` : op.kind}: ${percentOf(share)}% of its time`}
            />
          );
        }),
        ...(k8s ? [c.status === "RUNNING" ? <Download query={`api=cmassh&name=${encodeURIComponent(c.name)}`} name={c.name} /> : "—"] : []),
      ])}
    />
  );
}

export function CycleCloudPanel({ state }: { state: ConsoleState }) {
  const clusters = listOf<CycleCloudCluster>(state, "/_local/cyclecloud/clusters", "clusters");
  const nodes = listOf<CycleCloudNode>(state, "/_local/cyclecloud/nodes", "nodes");
  return (
    <>
      <Table
        caption="CycleCloud clusters"
        headers={["cluster", "nodearrays (active / most)"]}
        rows={clusters.map((c) => [<strong>{c.name}</strong>, c.nodearrays.map((n) => `${n.name}: ${n.activeCount} / ${n.maxCount}`).join(", ")])}
      />
      <Table
        caption="CycleCloud nodes"
        headers={["node", "cluster", "nodearray", "machine type", "state", "target"]}
        rows={nodes.map((n) => [
          n.name,
          n.cluster,
          n.nodearray,
          n.machineType,
          <Status value={n.state} />,
          n.transition ? `${n.transition.kind} → ${n.targetState}` : n.targetState,
        ])}
      />
    </>
  );
}

/**
 * A Senlin action in flight: a rolling update shows its batches, each done, in progress or waiting;
 * a create, resize or scale the cluster's members in place against its desired capacity.
 */
function SenlinActionProgress({ action, cluster }: { action: SenlinAction; cluster: SenlinCluster }) {
  const members = cluster.members;
  const plan = action.data.update?.plan;
  const target = action.inputs.new_profile_id;
  if (action.action === "CLUSTER_UPDATE" && plan && typeof target === "string") {
    const byId = new Map(members.map((m) => [m.id, m]));
    const batchState = (batch: string[]) =>
      batch.every((id) => byId.get(id)?.profile_id === target) ? "done" : batch.some((id) => byId.get(id)?.status === "UPDATING") ? "updating" : "waiting";
    const done = plan.filter((b) => batchState(b) === "done").length;
    return (
      <div class="rolling">
        <Progress label={`rolling update of ${action.id}`} value={done / plan.length} detail={`rolling update: ${done} of ${plan.length} batches done`} />
        <ol class="batches" aria-label="batches">
          {plan.map((batch, i) => (
            <li key={i} class={batchState(batch)}>
              batch {i + 1}: {batch.map((id) => byId.get(id)?.name ?? id.slice(0, 8)).join(", ")} — {batchState(batch)}
            </li>
          ))}
        </ol>
      </div>
    );
  }
  const membership = membershipProgress(action, cluster);
  if (membership) return <Progress label={`${action.action} of cluster ${cluster.name}`} value={membership.value} detail={membership.detail} />;
  return (
    <div>
      {action.action} <Status value={action.status} />
    </div>
  );
}

export function SenlinPanel({ state }: { state: ConsoleState }) {
  const clusters = listOf<SenlinCluster>(state, "/_local/senlin/clusters", "clusters");
  const profiles = listOf<Named>(state, "/_local/senlin/profiles", "profiles");
  const policies = listOf<SenlinPolicy>(state, "/_local/senlin/policies", "policies");
  const receivers = listOf<SenlinReceiver>(state, "/_local/senlin/receivers", "receivers");
  const nodes = listOf<SenlinNode>(state, "/_local/senlin/nodes", "nodes");
  const policyName = new Map(policies.map((p) => [p.id, p.name]));
  const clusterName = new Map(clusters.map((c) => [c.id, c.name]));
  return (
    <>
      <Table
        caption="Senlin clusters"
        headers={["cluster", "status", "size (min / desired / max)", "profile", "members", "policies", "actions in flight"]}
        rows={clusters.map((c) => [
          <strong>{c.name}</strong>,
          <>
            <Status value={c.status} /> <small>{c.status_reason}</small>
          </>,
          `${c.min_size} / ${c.desired_capacity} / ${c.max_size}`,
          c.profile_name,
          c.members.map((m) => (
            <div key={m.id}>
              {m.name} <Status value={m.status} />
            </div>
          )),
          c.bindings.map((b) => `${policyName.get(b.policy_id) ?? b.policy_id}${b.enabled ? "" : " (disabled)"}`).join(", ") || "none",
          c.actions_in_flight.map((a) => <SenlinActionProgress key={a.id} action={a} cluster={c} />),
        ])}
      />
      <Table
        caption="Senlin nodes"
        headers={["node", "cluster", "index", "status", "profile"]}
        rows={nodes.map((n) => [n.name, clusterName.get(n.cluster_id) ?? (n.cluster_id ? n.cluster_id.slice(0, 8) : "orphan"), n.index, <Status value={n.status} />, n.profile_name ?? n.profile_id.slice(0, 8)])}
      />
      <Table
        caption="Senlin profiles"
        headers={["profile", "type", "used by"]}
        rows={profiles.map((p) => {
          const users = clusters.filter((c) => c.profile_id === p.id).map((c) => c.name);
          const onNodes = nodes.filter((n) => n.profile_id === p.id).length;
          return [p.name, p.type ?? "", [...users, ...(onNodes ? [`${onNodes} node${onNodes === 1 ? "" : "s"}`] : [])].join(", ") || "nothing"];
        })}
      />
      <Table
        caption="Senlin policies"
        headers={["policy", "type", "attached to"]}
        rows={policies.map((p) => [p.name, p.type ?? "", p.clusters.map((id) => clusterName.get(id) ?? id.slice(0, 8)).join(", ") || "no cluster"])}
      />
      <Table
        caption="Senlin receivers"
        headers={["receiver", "type", "cluster", "action"]}
        rows={receivers.map((r) => [r.name, r.type ?? "", r.cluster_id ? (clusterName.get(r.cluster_id) ?? r.cluster_id) : "", r.action ?? ""])}
      />
    </>
  );
}

export function PelotonPanel({ state }: { state: ConsoleState }) {
  const pools = listOf<PelotonPool>(state, "/_local/peloton/respools", "respools");
  const jobs = listOf<PelotonJob>(state, "/_local/peloton/jobs", "jobs");
  const poolPath = new Map(pools.map((p) => [p.id, p.path]));
  return (
    <>
      <Table
        caption="Peloton resource pools"
        headers={["pool", "limits", "jobs"]}
        rows={pools.map((p) => [p.path, p.resources.map((r) => `${r.kind} ${r.reservation}–${r.limit}`).join(", ") || "no limits", p.jobs])}
      />
      <Table
        caption="Peloton jobs"
        headers={["job", "pool", "state", "pods", "workflow"]}
        rows={jobs.map((j) => [
          <strong>{j.name}</strong>,
          poolPath.get(j.respoolId) ?? "",
          <Status value={j.state} />,
          <ul class="pods" aria-label={`pods of ${j.name}`}>
            {j.pods.map((p) => (
              <li key={p.instanceId}>
                #{p.instanceId} <Status value={p.state} /> v{p.configVersion}
              </li>
            ))}
          </ul>,
          j.workflow ? (
            <Progress
              label={`${j.workflow.type} of job ${j.name}`}
              value={j.workflow.done.length / Math.max(1, j.workflow.done.length + j.workflow.current.length + j.workflow.todo.length + j.workflow.failed.length)}
              detail={`${j.workflow.type} ${j.workflow.state}: ${j.workflow.done.length} done, ${j.workflow.current.length} in progress, ${j.workflow.todo.length} to do`}
            />
          ) : (
            "—"
          ),
        ])}
      />
    </>
  );
}

export function VclusterPanel({ state }: { state: ConsoleState }) {
  const vclusters = listOf<VCluster>(state, "/_local/vcluster/vclusters", "vclusters");
  const snapshots = listOf<VSnapshot>(state, "/_local/vcluster/snapshots", "snapshots");
  const k8s = runsKubernetes(state);
  return (
    <>
      <Table
        caption="vclusters"
        headers={["vcluster", "phase", "version", "replicas", "operations in flight", ...(k8s ? ["kubeconfig"] : [])]}
        rows={vclusters.map((v) => [
          <strong>
            {v.namespace}/{v.name}
          </strong>,
          <Status value={v.phase} />,
          v.spec.kubernetes_version ?? "",
          v.replicas.desired,
          v.operationsInFlight.join(", ") || "none",
          ...(k8s ? [v.phase === "RUNNING" ? <Download query={`api=vcluster&namespace=${encodeURIComponent(v.namespace)}&name=${encodeURIComponent(v.name)}`} name={v.name} /> : "—"] : []),
        ])}
      />
      <Table caption="vcluster snapshots" headers={["snapshot", "vcluster", "status"]} rows={snapshots.map((s) => [s.name, `${s.namespace}/${s.vclusterName}`, <Status value={s.status} />])} />
    </>
  );
}
