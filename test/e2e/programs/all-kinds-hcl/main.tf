# One resource of every kind of every platform, for the reliability matrix on OpenTofu: the HCL
# twin of test/e2e/programs/all-kinds. `round` moves every resource to its next state at once:
# round 0 creates, rounds 1 and 2 each change one in-place field of each kind (the snapshot has
# none, so its description change is a replacement). Credentials come from the environment.
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

provider "clusterform" {}

variable "round" {
  type    = number
  default = 0
}

locals {
  r = min(var.round, 2)
}

resource "clusterform_cmassh_cluster" "cluster" {
  name               = "matrix"
  kubernetes_version = element(["1.30.10", "1.31.6", "1.32.3"], local.r)
  control_plane = {
    instance_type = "standard"
    node_count    = 1
  }
}

resource "clusterform_cmassh_node_pool" "pool" {
  name          = "pool-0"
  cluster_name  = clusterform_cmassh_cluster.cluster.name
  instance_type = "standard"
  node_count    = element([1, 2, 3], local.r)
}

resource "clusterform_peloton_resource_pool" "respool" {
  name = "matrix"
  resources = [
    { kind = "cpu", reservation = 4, limit = element([100, 120, 140], local.r) },
    { kind = "memory", reservation = 1024, limit = 102400 },
  ]
}

resource "clusterform_peloton_stateless_job" "job" {
  name           = "job-0"
  respool_id     = clusterform_peloton_resource_pool.respool.id
  instance_count = 2
  default_spec = {
    containers = [{
      name      = "web"
      image     = element(["nginx:1.27", "nginx:1.28", "nginx:1.29"], local.r)
      resources = { cpu = 0.5, memory_mb = 128 }
    }]
  }
  update_policy = { batch_size = 1 }
}

resource "clusterform_vcluster_vcluster" "vc" {
  name      = "vc"
  namespace = "matrix"
  replicas  = element([1, 2, 3], local.r)
}

resource "clusterform_vcluster_snapshot" "snap" {
  name          = "snap"
  vcluster_name = clusterform_vcluster_vcluster.vc.name
  namespace     = clusterform_vcluster_vcluster.vc.namespace
  description   = "round ${local.r}"
}

resource "clusterform_senlin_profile" "profile" {
  name = "matrix-server"
  spec = {
    type       = "os.nova.server"
    version    = "1.0"
    properties = { flavor = "m1.small", image = "cirros" }
  }
  metadata = { round = "r${local.r}" }
}

resource "clusterform_senlin_policy" "policy" {
  name = "deletion-r${local.r}"
  spec = {
    type       = "senlin.policy.deletion"
    version    = "1.0"
    properties = { criteria = "OLDEST_FIRST" }
  }
}

resource "clusterform_senlin_cluster" "senlin" {
  name             = "matrix"
  profile          = clusterform_senlin_profile.profile.id
  policies         = [{ policy = clusterform_senlin_policy.policy.id }]
  min_size         = 0
  max_size         = 5
  desired_capacity = element([1, 2, 3], local.r)
}

resource "clusterform_cyclecloud_node_pool" "cc" {
  cluster_name = "demo"
  nodearray    = "execute"
  node_count   = element([1, 2, 3], local.r)
}
