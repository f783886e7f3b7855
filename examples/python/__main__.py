"""The resources of examples/yaml through the Python SDK: a cma-ssh cluster and node pool, a
CycleCloud node pool, a Senlin profile and a cluster built from it, a Peloton resource pool and a
stateless job in it, a vcluster and a snapshot of it. The native plugin serves them."""

import pulumi
import pulumi_clusterform as clusterform

# Pulumi.yaml declares every key with its type and default: the CLI has refused a value of the
# wrong type and filled in a missing one before this runs.
config = pulumi.Config()
cluster_line = config.require("clusterLine")
pool_count = config.require_int("poolCount")
cyclecloud_count = config.require_int("cyclecloudCount")
senlin_capacity = config.require_int("senlinCapacity")
job_image = config.require("jobImage")
vcluster_version = config.require("vclusterVersion")


def _none_offered(line: str) -> str:
    raise ValueError(f"cma-ssh offers no Kubernetes version in the line {line!r}: set clusterLine to a line getVersions lists")


# cma-ssh: a cluster at the newest patch of the chosen line the platform offers (a lookup: it only
# reads), and a node pool on it (the pool names the cluster by its output).
offered = clusterform.cmassh.get_versions_output(prefix=cluster_line)
cluster = clusterform.cmassh.Cluster(
    "cluster",
    kubernetes_version=offered.newest.apply(lambda newest: newest or _none_offered(cluster_line)),
    control_plane={"instance_type": "standard", "count": 1},
)
pool = clusterform.cmassh.NodePool(
    "pool",
    cluster_name=cluster.name,
    instance_type="standard",
    count=pool_count,
)

# Azure CycleCloud: nodes of the `execute` node array of an existing cluster.
cc = clusterform.cyclecloud.NodePool("cc", cluster_name="demo", nodearray="execute", count=cyclecloud_count)

# OpenStack Senlin: a profile, and a cluster built from it (by the profile's id, an output).
profile = clusterform.senlin.Profile(
    "profile",
    spec={"type": "os.nova.server", "version": "1.0", "properties": {"flavor": "m1.small", "image": "cirros"}},
)
senlin = clusterform.senlin.Cluster(
    "senlin",
    profile=profile.id,
    min_size=0,
    max_size=5,
    desired_capacity=senlin_capacity,
)

# Uber Peloton: a resource pool and a stateless job in it, rolled one instance at a time.
respool = clusterform.peloton.ResourcePool(
    "respool",
    resources=[
        {"kind": "cpu", "reservation": 4, "limit": 100},
        {"kind": "memory", "reservation": 1024, "limit": 102400},
    ],
)
job = clusterform.peloton.StatelessJob(
    "job",
    respool_id=respool.id,
    instance_count=2,
    default_spec={
        "containers": [
            {"name": "web", "image": job_image, "resources": {"cpu": 0.5, "memory_mb": 128}},
        ],
    },
    update_policy={"batch_size": 1},
)

# vcluster: a virtual cluster and a snapshot of it (the snapshot names the vcluster by its output).
vc = clusterform.vcluster.VCluster("vc", namespace="examples", kubernetes_version=vcluster_version)
snap = clusterform.vcluster.Snapshot("snap", vcluster_name=vc.name, namespace="examples", description="nightly")

pulumi.export("clusterName", cluster.name)
pulumi.export("poolName", pool.name)
pulumi.export("cyclecloudNodes", cc.node_names)
pulumi.export("senlinNodes", senlin.node_ids)
pulumi.export("jobId", job.id)
pulumi.export("vclusterName", vc.name)
pulumi.export("snapshotId", snap.id)
