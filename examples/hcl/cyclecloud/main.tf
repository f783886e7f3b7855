# A node pool of an Azure CycleCloud cluster's nodearray, through terraform-provider-clusterform.
# Credentials: cyclecloud_username / cyclecloud_password here, or CLUSTERFORM_CYCLECLOUD_USERNAME
# and CLUSTERFORM_CYCLECLOUD_PASSWORD.
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

provider "clusterform" {}

variable "node_count" {
  type    = number
  default = 1
}

variable "machine_type" {
  type    = string
  default = null
}

resource "clusterform_cyclecloud_node_pool" "execute" {
  cluster_name = "demo"
  nodearray    = "execute"
  node_count   = var.node_count
  machine_type = var.machine_type
}

output "ready_count" {
  value = clusterform_cyclecloud_node_pool.execute.ready_count
}
