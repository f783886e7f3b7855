# A Peloton resource pool and a stateless job in it, through terraform-provider-clusterform.
terraform {
  required_providers {
    clusterform = {
      source = "registry.opentofu.org/clusterform/clusterform"
    }
  }
}

provider "clusterform" {}

variable "cpu_limit" {
  type    = number
  default = 100
}

variable "image" {
  type    = string
  default = "nginx:1.27"
}

variable "parent" {
  type    = string
  default = "root"
}

resource "clusterform_peloton_resource_pool" "web" {
  name   = "web"
  parent = var.parent
  resources = [
    { kind = "cpu", reservation = 4, limit = var.cpu_limit },
    { kind = "memory", reservation = 1024, limit = 102400 },
  ]
}

resource "clusterform_peloton_stateless_job" "frontend" {
  name           = "frontend"
  respool_id     = clusterform_peloton_resource_pool.web.id
  instance_count = 2
  default_spec = {
    containers = [{
      name      = "web"
      image     = var.image
      resources = { cpu = 0.5, memory_mb = 128 }
    }]
  }
  update_policy = { batch_size = 1 }
}

output "job_state" {
  value = clusterform_peloton_stateless_job.frontend.state
}
