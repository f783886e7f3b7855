# An OpenStack Senlin cluster, through terraform-provider-clusterform. The credentials come from
# the provider block or, as here, from the OS_* environment variables (or clouds.yaml with OS_CLOUD).
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

provider "clusterform" {}

variable "desired_capacity" {
  type    = number
  default = 1
}

variable "profile" {
  type    = string
  default = "web-profile"
}

resource "clusterform_senlin_cluster" "web" {
  name             = "web"
  profile          = var.profile
  min_size         = 0
  max_size         = 5
  desired_capacity = var.desired_capacity
}

output "node_ids" {
  value = clusterform_senlin_cluster.web.node_ids
}
