# An OpenStack Senlin cluster built from a profile and governed by a policy, all three managed here
# through terraform-provider-clusterform. The credentials come from the provider block or, as here,
# from the OS_* environment variables (or clouds.yaml with OS_CLOUD).
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

variable "image" {
  type    = string
  default = "cirros"
}

variable "team" {
  type    = string
  default = "web"
}

variable "policy_name" {
  type    = string
  default = "web-deletion"
}

variable "criteria" {
  type    = string
  default = "OLDEST_FIRST"
}

# Senlin never changes a profile's spec: a new spec is a new profile. create_before_destroy lets
# the cluster move to the new profile (Senlin's rolling update of its nodes) before the old one
# is deleted; Senlin refuses to delete a profile a cluster still uses.
resource "clusterform_senlin_profile" "server" {
  name = "web-server"
  spec = {
    type    = "os.nova.server"
    version = "1.0"
    properties = {
      flavor = "m1.small"
      image  = var.image
    }
  }
  metadata = { team = var.team }
  lifecycle {
    create_before_destroy = true
  }
}

resource "clusterform_senlin_policy" "deletion" {
  name = var.policy_name
  spec = {
    type       = "senlin.policy.deletion"
    version    = "1.0"
    properties = { criteria = var.criteria }
  }
  lifecycle {
    create_before_destroy = true
  }
}

resource "clusterform_senlin_cluster" "web" {
  name             = "web"
  profile          = clusterform_senlin_profile.server.id
  policies         = [{ policy = clusterform_senlin_policy.deletion.id }]
  min_size         = 0
  max_size         = 5
  desired_capacity = var.desired_capacity
}

output "node_ids" {
  value = clusterform_senlin_cluster.web.node_ids
}
