# Sourced by scripts/setup.sh after the "kubernetes" step (test profile): builds and installs
# pulumi-resource-kubernetes for @pulumi/kubernetes, which test/e2e-kubernetes (the examples that
# deploy workloads into a local cluster) needs. The "kubernetes" step alone builds it only when asked
# (CLUSTERFORM_KUBERNETES_PLUGIN=1), which keeps it out of the demo's set-up; the tests always ask.
# Cold: about 13 minutes on an idle 2-core machine with the other Kubernetes modules cached (docs/testing.md).
# CLUSTERFORM_KUBERNETES_PLUGIN=0 leaves it out.

CLUSTERFORM_KUBERNETES_PLUGIN="${CLUSTERFORM_KUBERNETES_PLUGIN:-1}" cf_setup_kubernetes
