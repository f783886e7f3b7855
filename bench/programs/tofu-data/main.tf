# var.resources terraform_data resources: tofu's own floor for a no-change plan (built into tofu,
# no provider process to start), the baseline of bench/release-start.run.ts.
variable "resources" {
  type    = number
  default = 100
}

resource "terraform_data" "item" {
  count = var.resources
  input = { name = "item-${count.index}", instance_type = "standard", node_count = 1 }
}
