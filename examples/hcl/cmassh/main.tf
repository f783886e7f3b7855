# A cma-ssh cluster and a node pool, managed by OpenTofu through terraform-provider-clusterform.
# See docs/opentofu.md for installing the provider without a registry.
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

# Endpoints and credentials; unset attributes fall back to CLUSTERFORM_ENDPOINT and the other
# environment variables the Pulumi provider reads (default: the local control plane).
provider "clusterform" {}

variable "cluster_name" {
  type    = string
  default = "analytics"
}

# The Kubernetes line the cluster follows: it runs the newest patch of that line the endpoint
# offers (the data source below reads it at every plan; a patch the platform adds later is an
# upgrade the next plan shows). A new line, "1.32", is an in-place upgrade.
variable "kubernetes_minor" {
  type    = string
  default = "1.31"
}

variable "general_nodes" {
  type    = number
  default = 2
}

variable "create_timeout" {
  type    = string
  default = "45m"
}

variable "gpu_type" {
  type    = string
  default = "gpu"
}

data "clusterform_cmassh_versions" "offered" {
  prefix = var.kubernetes_minor
}

resource "clusterform_cmassh_cluster" "analytics" {
  name               = var.cluster_name
  kubernetes_version = data.clusterform_cmassh_versions.offered.newest
  control_plane = {
    instance_type = "standard"
    node_count    = 1
  }
  timeouts {
    create = var.create_timeout
  }
}

resource "clusterform_cmassh_node_pool" "general" {
  name          = "general"
  cluster_name  = clusterform_cmassh_cluster.analytics.name
  instance_type = "standard"
  node_count    = var.general_nodes
  labels        = { workload = "general" }
}

resource "clusterform_cmassh_node_pool" "gpu" {
  name          = "gpu"
  cluster_name  = clusterform_cmassh_cluster.analytics.name
  instance_type = var.gpu_type
  node_count    = 1
}

output "status" {
  value = clusterform_cmassh_cluster.analytics.status
}

output "kubeconfig" {
  value     = clusterform_cmassh_cluster.analytics.kubeconfig
  sensitive = true
}
