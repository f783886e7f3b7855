# A virtual cluster and a snapshot of it, through terraform-provider-clusterform.
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

provider "clusterform" {}

variable "replicas" {
  type    = number
  default = 1
}

variable "isolation_mode" {
  type    = string
  default = "full"
}

# Left null, the server picks them ("k3s", its default Kubernetes version). After `tofu import` of a
# vcluster, write what the server picked: they force replacement, and the import reports them.
variable "distro" {
  type    = string
  default = null
}

variable "kubernetes_version" {
  type    = string
  default = null
}

variable "retention_hours" {
  type    = number
  default = 24
}

resource "clusterform_vcluster_vcluster" "dev" {
  name               = "dev"
  namespace          = "team-dev"
  replicas           = var.replicas
  isolation_mode     = var.isolation_mode
  distro             = var.distro
  kubernetes_version = var.kubernetes_version
}

resource "clusterform_vcluster_snapshot" "nightly" {
  name            = "nightly"
  vcluster_name   = clusterform_vcluster_vcluster.dev.name
  namespace       = clusterform_vcluster_vcluster.dev.namespace
  retention_hours = var.retention_hours
}

output "kubeconfig" {
  value     = clusterform_vcluster_vcluster.dev.kubeconfig
  sensitive = true
}
