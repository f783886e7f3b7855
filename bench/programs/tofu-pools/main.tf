# One cma-ssh cluster and var.pools node pools: the OpenTofu side of bench/tofu.run.ts, the same
# resources as bench/programs/cmassh-pools.
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

variable "pools" {
  type    = number
  default = 99
}

# Another name lets two copies share one plane (bench/release-start.run.ts plans one per start mode).
variable "cluster_name" {
  type    = string
  default = "main"
}

resource "clusterform_cmassh_cluster" "main" {
  name               = var.cluster_name
  kubernetes_version = "1.30.10"
  control_plane      = { instance_type = "standard", node_count = 1 }
}

resource "clusterform_cmassh_node_pool" "pool" {
  count         = var.pools
  name          = "pool-${count.index}"
  cluster_name  = clusterform_cmassh_cluster.main.name
  instance_type = "standard"
  node_count    = 1
}
