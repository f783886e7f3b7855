import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KindType } from "../../kinds";
import { type CheckSurfaces, ENGINES, type EngineName, headingOf, pathIn, type Shown, startCheckSurfaces, WHOLE, withSet } from "./testing";

// Bad inputs of every platform through the three engines' own check surfaces, in this process,
// against the local control plane: the dynamic provider's check, the native plugin's gRPC Check,
// and tfplugin6's ValidateResourceConfig and PlanResourceChange. Each input's failure must name
// the field as that engine's users write it (definition key, Pulumi name, HCL attribute), the
// value received and what is allowed, and no call may reach the platform. The check reports every
// failure of a resource at once, so the inputs of a group go in one request per engine and each
// one's failure is found in that one answer. A downgrade, which needs an existing object, and what
// the platform itself refuses are refused-changes.test.ts; what the engines print around these
// answers (pulumi preview, tofu plan) is test/e2e/validation.test.ts.

type Props = Record<string, unknown>;

/** Why OpenTofu refuses an input itself, before the provider sees it: the schema's types or attributes. */
type TofuRefuses = "type" | "unknown attribute" | "required";
const TOFU_REFUSAL: Record<TofuRefuses, RegExp> = {
  type: /^\S+ is an? (number|bool|string|list|object|map)( attribute)?: tofu (converts or )?refuses/,
  "unknown attribute": /^the schema has no attribute \S+: tofu refuses it itself/,
  required: /^\S+ is required by the schema: tofu refuses the block itself/,
};

/** One bad input. */
interface BadInput {
  what: string;
  /** The fields it sets over the group's good inputs, by path in definition keys; undefined removes one. */
  set: Props;
  /** The field the failure names first, by path in definition keys (each engine shows it in its own names). */
  field: string;
  /** Text of what is allowed. */
  allowed: string;
  /**
   * The value received, as the failure shows it. Null where there is none to show: a field left
   * out, or one the kind does not have (the failure names it).
   */
  got: string | null;
  /** OpenTofu refuses it itself, for this reason, so the provider never sees it in HCL. */
  tofu?: TofuRefuses;
  /** The path the failure points at (its property), where deeper than the field its text starts with: a map's key. */
  at?: string;
}

/** Bad inputs of one resource, checked together; none of them hides another's failure. */
interface Group {
  type: KindType;
  /** The resource's name (Pulumi), and the name an HCL block gives the object where the kind has one. */
  name: string;
  /** Inputs the check accepts, in definition keys. */
  good: Props;
  /** Why these inputs share a group (a rule across fields runs only once the fields it covers are valid). */
  note?: string;
  inputs: BadInput[];
}

const bad = (what: string, set: Props, field: string, allowed: string, got: string | null, tofu?: TofuRefuses): BadInput => ({ what, set, field, allowed, got, ...(tofu ? { tofu } : {}) });
/** A bad key of map `field`: the failure names the map and the key, and points at the key's entry. */
const badKey = (what: string, field: string, key: string, value: unknown, allowed: string): BadInput => {
  const at = `${field}[${JSON.stringify(key)}]`;
  return { what, set: { [at]: value }, field, allowed, got: `key ${JSON.stringify(key)}`, at };
};

const DNS_LABEL = "must be a DNS-1123 label: 1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit";
const VERSION = 'must be a version MAJOR.MINOR.PATCH such as "1.13.4" (a leading "v" is allowed)';
const DURATION = 'must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h)';
const ACTION_TIMEOUT = 'must be a duration of whole seconds from 1s to 2147483647s, such as "90s", "5m" or "1h30m"';
const LABEL_VALUE = "must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
const UNKNOWN = "is not a known field";
const CC_NAME = "must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit";
const NAME_FORMAT = `must be a node name pattern with exactly one "%d" (the node index) and otherwise letters, digits, '_', '.' or '-', such as "compute-%d"`;
const SENLIN_NAME = "must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-'";
const QUANTITY = 'must be a Kubernetes quantity: a non-negative number with an optional suffix m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei, such as "500m" or "1Gi"';
const CIDR = 'must be a network in CIDR notation such as "10.42.0.0/16" or "fd00::/108"';
const PROFILE_TYPE = 'must be a profile type: dotted lower-case words such as "os.nova.server"';
const POLICY_TYPE = 'must be a policy type: dotted lower-case words such as "senlin.policy.deletion"';
const PLUGIN_VERSION = 'must be a plugin version such as "1.0" (a "major.minor" string or a number)';
const JSON_OBJECT = "must be an object of keys to JSON values";
const between = (lo: number, hi: number) => `must be an integer between ${lo} and ${hi}`;

const CLUSTER = { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } };
const CONTAINER = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64 } };
const JOB = { respoolId: "respool-1", instanceCount: 2, defaultSpec: { containers: [CONTAINER] } };
const POOL = { resources: [{ kind: "cpu", reservation: 1, limit: 10 }] };
const PROFILE = { spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } } };
const POLICY = { spec: { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } } };

const PLATFORMS: Record<string, Group[]> = {
  "cma-ssh": [
    {
      type: "cmassh:Cluster",
      name: "main",
      good: CLUSTER,
      inputs: [
        bad("a cluster name with capitals and '_'", { name: "Prod_Cluster" }, "name", DNS_LABEL, 'got "Prod_Cluster"'),
        bad("a version without a patch number", { kubernetesVersion: "1.30" }, "kubernetesVersion", VERSION, 'got "1.30"'),
        bad("a control-plane instance type that does not exist", { "controlPlane.instanceType": "huge" }, "controlPlane.instanceType", 'must be one of "standard" or "gpu"', 'got "huge"'),
        bad("zero control-plane machines", { "controlPlane.count": 0 }, "controlPlane.count", between(1, 9), "got 0"),
        badKey("a label key with a space", "controlPlane.labels", "bad key", "x", "must be a Kubernetes label key"),
        bad("a label value with spaces", { 'controlPlane.labels["app"]': "no spaces allowed" }, 'controlPlane.labels["app"]', LABEL_VALUE, 'got "no spaces allowed"'),
        bad("a field cma-ssh does not have", { "controlPlane.zone": "eu-1" }, "controlPlane.zone", UNKNOWN, null, "unknown attribute"),
        bad("a timeout that is not a duration", { "timeouts.create": "soon" }, "timeouts.create", DURATION, 'got "soon"'),
      ],
    },
    {
      type: "cmassh:Cluster",
      name: "main",
      good: CLUSTER,
      note: "the reserved label is checked only once every label is well-formed",
      inputs: [
        bad("a cluster name of 64 characters", { name: "a".repeat(64) }, "name", DNS_LABEL, `got "${"a".repeat(64)}"`),
        bad("a version that is a word", { kubernetesVersion: "latest" }, "kubernetesVersion", VERSION, 'got "latest"'),
        bad("a fractional control-plane count", { "controlPlane.count": 2.5 }, "controlPlane.count", between(1, 9), "got 2.5"),
        badKey("the reserved ownership label", "controlPlane.labels", "clusterform.dev/owner", "me", "is reserved: Clusterform sets clusterform.dev/owner"),
      ],
    },
    {
      type: "cmassh:NodePool",
      name: "p",
      good: { clusterName: "prod", instanceType: "standard", count: 1 },
      inputs: [
        bad("a negative pool count", { count: -1 }, "count", between(0, 1000), "got -1"),
        bad("a pool instance type that does not exist", { instanceType: "tpu" }, "instanceType", 'must be one of "standard" or "gpu"', 'got "tpu"'),
        bad("a pool name starting with '-'", { name: "-pool" }, "name", DNS_LABEL, 'got "-pool"'),
        bad("a pool label value of 64 characters", { 'labels["k"]': "v".repeat(64) }, 'labels["k"]', LABEL_VALUE, `got "${"v".repeat(64)}"`),
        bad("a pool timeout with words", { "timeouts.delete": "10 minutes" }, "timeouts.delete", DURATION, 'got "10 minutes"'),
      ],
    },
    {
      type: "cmassh:NodePool",
      name: "p",
      good: { clusterName: "prod", instanceType: "standard", count: 1 },
      inputs: [bad("a pool count above the limit", { count: 1001 }, "count", between(0, 1000), "got 1001")],
    },
  ],
  CycleCloud: [
    {
      type: "cyclecloud:NodePool",
      name: "p",
      good: { clusterName: "demo", nodearray: "execute", count: 1 },
      note: '"count or coreCount, not both" runs only when the rest of the pool is valid',
      inputs: [bad("count and coreCount together", { coreCount: 4 }, "count", "count and coreCount cannot both be set: give one of them", "got count 1 and coreCount 4")],
    },
    {
      type: "cyclecloud:NodePool",
      name: "p",
      good: { clusterName: "demo", nodearray: "execute", count: 1 },
      inputs: [bad("neither count nor coreCount", { count: undefined }, WHOLE, "must set either count (nodes) or coreCount (cores)", "got neither")],
    },
    {
      type: "cyclecloud:NodePool",
      name: "p",
      good: { clusterName: "demo", nodearray: "execute", count: 1 },
      inputs: [
        bad("a negative count", { count: -1 }, "count", between(0, 1000), "got -1"),
        bad("a negative coreCount", { coreCount: -8 }, "coreCount", between(0, 100000), "got -8"),
        bad("a nameFormat without %d", { nameFormat: "worker" }, "nameFormat", NAME_FORMAT, 'got "worker"'),
        bad("a negative nameOffset", { nameOffset: -3 }, "nameOffset", between(0, 1000000), "got -3"),
        badKey("a node attribute CycleCloud sets itself", "nodeAttributes", "MachineType", "x", "is set by CycleCloud and cannot be given"),
        bad("a placement group with a space", { placementGroupId: "pg 1" }, "placementGroupId", "must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit", 'got "pg 1"'),
      ],
    },
    {
      type: "cyclecloud:NodePool",
      name: "p",
      good: { clusterName: "demo", nodearray: "execute", count: 1 },
      inputs: [
        bad("a count above the limit", { count: 1001 }, "count", between(0, 1000), "got 1001"),
        bad("a nameFormat with two %d", { nameFormat: "w-%d-%d" }, "nameFormat", NAME_FORMAT, 'got "w-%d-%d"'),
        bad("a cluster name with a slash", { clusterName: "demo/x" }, "clusterName", CC_NAME, 'got "demo/x"'),
        badKey("a node attribute name with a dash", "nodeAttributes", "keep-alive", true, "must be a node attribute name"),
        bad("a machine type with a space", { machineType: "Standard F2s" }, "machineType", 'must be an Azure VM size such as "Standard_F2s_v2"', 'got "Standard F2s"'),
      ],
    },
    {
      type: "cyclecloud:NodePool",
      name: "p",
      good: { clusterName: "demo", nodearray: "execute", count: 1 },
      inputs: [
        bad("a fractional count", { count: 2.5 }, "count", between(0, 1000), "got 2.5"),
        bad("a nameFormat with a space", { nameFormat: "my node %d" }, "nameFormat", NAME_FORMAT, 'got "my node %d"'),
        bad("an empty nodearray", { nodearray: "" }, "nodearray", CC_NAME, 'got ""'),
        bad("a timeout that is not a duration", { "timeouts.create": "soon" }, "timeouts.create", DURATION, 'got "soon"'),
      ],
    },
  ],
  Senlin: [
    {
      type: "senlin:Cluster",
      name: "main",
      good: { profile: "web-profile" },
      note: "a policy listed twice is found only when every policy is otherwise valid",
      inputs: [
        bad("a name starting with a digit", { name: "1web" }, "name", SENLIN_NAME, 'got "1web"'),
        bad("an empty profile", { profile: "" }, "profile", "must be a profile name, short id or UUID (a non-empty string)", 'got ""'),
        bad("a negative minSize", { minSize: -1 }, "minSize", between(0, 1000), "got -1"),
        bad("a maxSize below -1", { maxSize: -2 }, "maxSize", between(-1, 1000), "got -2"),
        bad("a fractional desiredCapacity", { desiredCapacity: 1.5 }, "desiredCapacity", between(0, 1000), "got 1.5"),
        bad("a zero action timeout", { actionTimeout: "0s" }, "actionTimeout", ACTION_TIMEOUT, 'got "0s"'),
        bad("metadata given as a list", { metadata: ["a"] }, "metadata", "must be an object of keys to JSON values", 'got ["a"]'),
        bad("a policy listed twice", { policies: [{ policy: "deletion" }, { policy: "deletion" }] }, "policies[1].policy", "must name each policy once", 'got "deletion" again'),
        bad("profileOnly given as a string", { profileOnly: "yes" }, "profileOnly", "must be a boolean", 'got "yes"', "type"),
      ],
    },
    {
      type: "senlin:Cluster",
      name: "main",
      good: { profile: "web-profile" },
      inputs: [
        bad("a name with a space", { name: "web tier" }, "name", SENLIN_NAME, 'got "web tier"'),
        bad("a desiredCapacity above Senlin's node limit", { desiredCapacity: 1001 }, "desiredCapacity", between(0, 1000), "got 1001"),
        bad("an action timeout given in seconds", { actionTimeout: 600 }, "actionTimeout", ACTION_TIMEOUT, "got 600", "type"),
        badKey("the reserved metadata key", "metadata", "clusterform.dev/owner", "me", "is reserved: Clusterform sets clusterform.dev/owner"),
        bad("a policy field Senlin does not have", { policies: [{ policy: "deletion", priority: 1 }] }, "policies[0].priority", UNKNOWN, null, "unknown attribute"),
        bad("a timeout that is not a duration", { "timeouts.create": "soon" }, "timeouts.create", DURATION, 'got "soon"'),
      ],
    },
    {
      type: "senlin:Cluster",
      name: "main",
      good: { profile: "web-profile" },
      inputs: [
        // Values over 80 characters are shown cut, ending in "...".
        bad("a name of 255 characters", { name: "a".repeat(255) }, "name", SENLIN_NAME, `got "${"a".repeat(79)}...`),
        bad("an enabled flag given as a string", { policies: [{ policy: "deletion", enabled: "no" }] }, "policies[0].enabled", "must be a boolean", 'got "no"', "type"),
      ],
    },
    {
      type: "senlin:Cluster",
      name: "main",
      good: { profile: "web-profile" },
      note: "the size rules (minSize <= desiredCapacity <= maxSize) run only when the rest of the cluster is valid",
      inputs: [
        bad("minSize above maxSize", { minSize: 3, maxSize: 2, desiredCapacity: 2 }, "minSize", "must not exceed maxSize (2)", "got 3"),
        bad("desiredCapacity then outside minSize and maxSize", {}, "desiredCapacity", "must be between minSize (3) and maxSize (2)", "got 2"),
      ],
    },
    {
      type: "senlin:Cluster",
      name: "main",
      good: { profile: "web-profile" },
      inputs: [bad("desiredCapacity above maxSize", { maxSize: 2, desiredCapacity: 3 }, "desiredCapacity", "must be between minSize (0) and maxSize (2)", "got 3")],
    },
    {
      type: "senlin:Cluster",
      name: "main",
      good: { profile: "web-profile" },
      inputs: [bad("desiredCapacity below minSize", { minSize: 2, desiredCapacity: 1 }, "desiredCapacity", "must be between minSize (2) and maxSize (unbounded)", "got 1")],
    },
    {
      type: "senlin:Profile",
      name: "web",
      good: PROFILE,
      inputs: [
        bad("a profile name starting with a digit", { name: "1web" }, "name", SENLIN_NAME, 'got "1web"'),
        bad("a profile type with capitals and a space", { "spec.type": "OS Nova" }, "spec.type", PROFILE_TYPE, 'got "OS Nova"'),
        bad("a profile version that is not major.minor", { "spec.version": "v1" }, "spec.version", PLUGIN_VERSION, 'got "v1"'),
        bad("profile properties given as a list", { "spec.properties": ["a"] }, "spec.properties", JSON_OBJECT, 'got ["a"]'),
        bad("a profile spec field Senlin does not have", { "spec.flavor": "m1.small" }, "spec.flavor", UNKNOWN, null, "unknown attribute"),
        bad("profile metadata given as a list", { metadata: [1] }, "metadata", JSON_OBJECT, "got [1]"),
        bad("a field profiles do not have", { image: "cirros" }, "image", UNKNOWN, null, "unknown attribute"),
      ],
    },
    {
      type: "senlin:Profile",
      name: "web",
      good: PROFILE,
      inputs: [
        bad("a profile name with a slash", { name: "web/a" }, "name", SENLIN_NAME, 'got "web/a"'),
        bad("a profile type ending in a dot", { "spec.type": "os." }, "spec.type", PROFILE_TYPE, 'got "os."'),
        bad("a profile version without its minor part", { "spec.version": "1" }, "spec.version", PLUGIN_VERSION, 'got "1"'),
        bad("profile properties given as a string", { "spec.properties": "x" }, "spec.properties", JSON_OBJECT, 'got "x"'),
        // The key and the value it was given: the failure points at the key's entry.
        { ...badKey("the reserved metadata key", "metadata", "clusterform.dev/owner", "me", 'key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner'), got: 'got "me"' },
        bad("a profile create timeout that is not a duration", { "timeouts.create": "soon" }, "timeouts.create", DURATION, 'got "soon"'),
      ],
    },
    {
      type: "senlin:Profile",
      name: "web",
      good: PROFILE,
      inputs: [
        bad("a profile name given as a number", { name: 7 }, "name", SENLIN_NAME, "got 7", "type"),
        bad("a profile type given as a number", { "spec.type": 5 }, "spec.type", PROFILE_TYPE, "got 5", "type"),
        bad("a profile version given as a boolean", { "spec.version": true }, "spec.version", PLUGIN_VERSION, "got true", "type"),
        bad("a profile update timeout that is not a duration", { "timeouts.update": "later" }, "timeouts.update", DURATION, 'got "later"'),
      ],
    },
    {
      type: "senlin:Policy",
      name: "del",
      good: POLICY,
      inputs: [
        bad("a policy name with a space", { name: "del policy" }, "name", SENLIN_NAME, 'got "del policy"'),
        bad("a policy type with a dash", { "spec.type": "senlin-policy" }, "spec.type", POLICY_TYPE, 'got "senlin-policy"'),
        bad("a negative policy version", { "spec.version": -1 }, "spec.version", PLUGIN_VERSION, "got -1", "type"),
        bad("policy properties given as a string", { "spec.properties": "x" }, "spec.properties", JSON_OBJECT, 'got "x"'),
        bad("a policy spec field Senlin does not have", { "spec.criteria": "OLDEST_FIRST" }, "spec.criteria", UNKNOWN, null, "unknown attribute"),
        bad("metadata, which policies do not have", { metadata: {} }, "metadata", UNKNOWN, null, "unknown attribute"),
        bad("a field policies do not have", { cluster: "c" }, "cluster", UNKNOWN, null, "unknown attribute"),
      ],
    },
    {
      type: "senlin:Policy",
      name: "del",
      good: POLICY,
      inputs: [
        bad("an empty policy name", { name: "" }, "name", SENLIN_NAME, 'got ""'),
        bad("a policy type with capitals", { "spec.type": "Senlin.Policy" }, "spec.type", POLICY_TYPE, 'got "Senlin.Policy"'),
        bad("a policy version without its minor part", { "spec.version": "1" }, "spec.version", PLUGIN_VERSION, 'got "1"'),
        bad("policy properties given as a list", { "spec.properties": [1] }, "spec.properties", JSON_OBJECT, "got [1]"),
        bad("a policy create timeout that is not a duration", { "timeouts.create": "soon" }, "timeouts.create", DURATION, 'got "soon"'),
      ],
    },
    {
      type: "senlin:Policy",
      name: "del",
      good: POLICY,
      inputs: [
        bad("a policy name given as a number", { name: 7 }, "name", SENLIN_NAME, "got 7", "type"),
        bad("a policy type given as a number", { "spec.type": 5 }, "spec.type", POLICY_TYPE, "got 5", "type"),
        bad("a policy version given as a boolean", { "spec.version": true }, "spec.version", PLUGIN_VERSION, "got true", "type"),
        bad("a policy delete timeout that is not a duration", { "timeouts.delete": "never" }, "timeouts.delete", DURATION, 'got "never"'),
      ],
    },
  ],
  Peloton: [
    {
      type: "peloton:StatelessJob",
      name: "web",
      good: JOB,
      inputs: [
        bad("no instances", { instanceCount: 0 }, "instanceCount", between(1, 10000), "got 0"),
        bad("zero CPU", { "defaultSpec.containers[0].resources.cpu": 0 }, "defaultSpec.containers[0].resources.cpu", "must be a number greater than 0", "got 0"),
        bad("negative memory", { "defaultSpec.containers[0].resources.memoryMb": -5 }, "defaultSpec.containers[0].resources.memoryMb", "must be a number greater than 0", "got -5"),
        bad("a port above 65535", { "defaultSpec.containers[0].ports": [{ name: "http", value: 70000 }] }, "defaultSpec.containers[0].ports[0].value", between(1, 65535), "got 70000"),
        bad("a health check without a command", { "defaultSpec.containers[0].livenessCheck": { command: "" } }, "defaultSpec.containers[0].livenessCheck.command", "must be a non-empty string", 'got ""'),
        bad("a health check timeout of 0", { "defaultSpec.containers[0].readinessCheck": { command: "true", timeoutSecs: 0 } }, "defaultSpec.containers[0].readinessCheck.timeoutSecs", between(1, 86400), "got 0"),
        bad("batch size 0", { "updatePolicy.batchSize": 0 }, "updatePolicy.batchSize", between(1, 10000), "got 0"),
        bad("an unknown desired state", { desiredState: "PAUSED" }, "desiredState", 'must be one of "RUNNING" or "KILLED"', 'got "PAUSED"'),
        bad("a job timeout that is not a duration", { "timeouts.update": "soon" }, "timeouts.update", DURATION, 'got "soon"'),
      ],
    },
    {
      type: "peloton:StatelessJob",
      name: "web",
      good: JOB,
      note: "rules across the job's fields are checked only when the whole job is otherwise valid",
      inputs: [
        bad("an override beyond instanceCount", { 'instanceSpec["7"]': { containers: [CONTAINER] } }, 'instanceSpec["7"]', "but instanceCount 2 has instances 0 to 1", "overrides instance 7"),
        bad("a batch larger than the SLA allows down", { "updatePolicy.batchSize": 4, "sla.maximumUnavailableInstances": 1 }, "updatePolicy.batchSize", "must be at most sla.maximumUnavailableInstances 1", "got 4"),
      ],
    },
    {
      type: "peloton:StatelessJob",
      name: "web",
      good: JOB,
      note: "unique container names are checked only when every container is valid",
      inputs: [
        bad("a fractional instance count", { instanceCount: 1.5 }, "instanceCount", between(1, 10000), "got 1.5"),
        bad("two containers of one name", { "defaultSpec.containers[1]": CONTAINER }, "defaultSpec.containers[1].name", "must be unique in the pod", '"web" appears twice'),
      ],
    },
    {
      type: "peloton:StatelessJob",
      name: "web",
      good: JOB,
      inputs: [bad("a pod without containers", { "defaultSpec.containers": [] }, "defaultSpec.containers", "must be at least 1 items", "got []")],
    },
    {
      type: "peloton:StatelessJob",
      name: "web",
      good: JOB,
      note: "unique port names are checked only when every port is valid",
      inputs: [
        bad("two ports of one name", { "defaultSpec.containers[0].ports": [{ name: "p", value: 1 }, { name: "p", value: 2 }] }, "defaultSpec.containers[0].ports[1].name", "must be unique in the container", '"p" appears twice'),
      ],
    },
    {
      type: "peloton:ResourcePool",
      name: "compute",
      good: POOL,
      inputs: [
        bad("a pool name with '/'", { name: "a/b" }, "name", 'must be 1 to 255 characters without "/"', 'got "a/b"'),
        bad("an unknown pool resource kind", { "resources[0].kind": "tpu" }, "resources[0].kind", 'must be one of "cpu", "memory", "disk" or "gpu"', 'got "tpu"'),
        bad("a pool slack limit above 100%", { "slackLimit.maxPercent": 120 }, "slackLimit.maxPercent", "must be a number from 0 to 100", "got 120"),
      ],
    },
    {
      type: "peloton:ResourcePool",
      name: "compute",
      good: POOL,
      note: "a limit against its reservation is checked only when the resource entry is otherwise valid",
      inputs: [bad("a pool limit below its reservation", { "resources[0]": { kind: "cpu", reservation: 8, limit: 4 } }, "resources[0].limit", "must be at least the reservation 8", "got 4")],
    },
  ],
  vcluster: [
    {
      type: "vcluster:VCluster",
      name: "main",
      good: { namespace: "team-a" },
      inputs: [bad("a missing namespace", { namespace: undefined }, "namespace", "is required", null, "required")],
    },
    {
      type: "vcluster:VCluster",
      name: "main",
      good: { namespace: "team-a" },
      note: "unique plugin names and the reserved label are checked only when the plugins, the labels, are otherwise valid",
      inputs: [
        bad("a namespace with capitals and '_'", { namespace: "Team_A" }, "namespace", DNS_LABEL, 'got "Team_A"'),
        bad("a name with a dot", { name: "dev.1" }, "name", DNS_LABEL, 'got "dev.1"'),
        bad("a distro that does not exist", { distro: "k9s" }, "distro", 'must be one of "k3s", "k8s", "k0s" or "eks"', 'got "k9s"'),
        bad("zero replicas", { replicas: 0 }, "replicas", between(1, 9), "got 0"),
        bad("a CPU request with a doubled suffix", { "resources.cpuRequest": "500mm" }, "resources.cpuRequest", QUANTITY, 'got "500mm"'),
        bad("a memory limit with a space", { "resources.memoryLimit": "1 Gi" }, "resources.memoryLimit", QUANTITY, 'got "1 Gi"'),
        bad("a negative memory request", { "resources.memoryRequest": "-512Mi" }, "resources.memoryRequest", QUANTITY, 'got "-512Mi"'),
        bad("a pod CIDR without a prefix length", { "network.podCidr": "10.42.0.0" }, "network.podCidr", CIDR, 'got "10.42.0.0"'),
        bad("a service CIDR with a prefix over 32", { "network.serviceCidr": "10.96.0.0/33" }, "network.serviceCidr", CIDR, 'got "10.96.0.0/33"'),
        bad("a DNS service address that is a name", { "network.dnsServiceIp": "kube-dns" }, "network.dnsServiceIp", 'must be an IPv4 or IPv6 address such as "10.96.0.10"', 'got "kube-dns"'),
        bad("a persistence size that is a word", { "storage.persistenceSize": "big" }, "storage.persistenceSize", QUANTITY, 'got "big"'),
        bad("an isolation mode that does not exist", { isolationMode: "strict" }, "isolationMode", 'must be one of "full" or "lite"', 'got "strict"'),
        bad("a Kubernetes version without a patch number", { kubernetesVersion: "1.29" }, "kubernetesVersion", VERSION, 'got "1.29"'),
        badKey("the reserved label `owner`", "labels", "owner", "bob", "is reserved: it carries the `owner` argument; set that instead"),
        bad("suspended given as a string", { suspended: "yes" }, "suspended", "must be a boolean", 'got "yes"', "type"),
        bad("duplicate plugin names", { plugins: [{ name: "a" }, { name: "a" }] }, "plugins[1].name", "must be unique among plugins", 'got "a" twice'),
        bad("a field vcluster does not have", { region: "eu" }, "region", UNKNOWN, null, "unknown attribute"),
      ],
    },
    {
      type: "vcluster:VCluster",
      name: "main",
      good: { namespace: "team-a" },
      inputs: [
        bad("fractional replicas", { replicas: 2.5 }, "replicas", between(1, 9), "got 2.5"),
        bad("an owner with a space", { vclusterOwner: "Alice Smith" }, "vclusterOwner", "(the `owner` argument) must be a Kubernetes label value", 'got "Alice Smith"'),
      ],
    },
    {
      type: "vcluster:Snapshot",
      name: "snap",
      good: { vclusterName: "main", namespace: "team-a" },
      inputs: [bad("a snapshot retention above a year", { retentionHours: 9000 }, "retentionHours", between(0, 8760), "got 9000")],
    },
  ],
};

let s: CheckSurfaces;
beforeAll(async () => {
  s = await startCheckSurfaces();
});
afterAll(async () => {
  await s?.close();
});

/** The inputs of a group that reach engine `engine` (OpenTofu refuses some itself). */
function reaching(group: Group, engine: EngineName): BadInput[] {
  return engine === "terraform" ? group.inputs.filter((input) => input.tofu === undefined) : group.inputs;
}

/** What one engine answered a group's inputs, all in one request, and the platform calls made meanwhile. */
interface Answer {
  shown: Shown[];
  calls: string[];
}

const answers = new Map<string, Promise<Answer>>();
function answerOf(group: Group, engine: EngineName): Promise<Answer> {
  const key = `${JSON.stringify(group.inputs.map((i) => i.what))} ${engine}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = (async () => {
      const inputs = reaching(group, engine).reduce((props, input) => withSet(props, input.set), group.good);
      const since = await s.seq();
      const shown = await s.check(engine, group.type, group.name, inputs);
      return { shown, calls: await s.callsSince(since) };
    })();
    answers.set(key, answer);
  }
  return answer;
}

/** Whether `shown` is `input`'s failure as engine `engine` shows it. */
function isFailureOf(shown: Shown, input: BadInput, engine: EngineName): boolean {
  return shown.text.startsWith(`${pathIn(engine, input.field)} `) && shown.text.includes(input.allowed) && (input.got === null || shown.text.includes(input.got));
}

const cases = Object.entries(PLATFORMS).flatMap(([platform, groups]) =>
  groups.flatMap((group) => group.inputs.flatMap((input) => ENGINES.map((engine) => ({ platform, group, input, engine })))),
);

describe("bad input is refused by each engine's check, naming the field in its names, the value and what is allowed, with no platform call", () => {
  it.for(cases)("$platform $group.type: $input.what ($engine)", async ({ group, input, engine }) => {
    if (engine === "terraform" && input.tofu) {
      // OpenTofu refuses it before any provider call; the schema says why.
      expect(s.hclRefusal(group.type, group.name, withSet(group.good, input.set))).toMatch(TOFU_REFUSAL[input.tofu]);
      return;
    }
    const { shown, calls } = await answerOf(group, engine);
    const own = shown.filter((f) => isFailureOf(f, input, engine));
    expect(own, `${engine} answered:\n${shown.map((f) => f.text).join("\n")}`).toHaveLength(1);
    expect(own[0]).toMatchObject(headingOf(group.type, input.at ?? input.field, engine));
    if (engine !== "terraform") expect(own[0].attribute).toBeUndefined();
    expect(calls).toEqual([]);
  });

  // OpenTofu refuses some groups' every input itself: no provider answer to read.
  const groups = Object.entries(PLATFORMS).flatMap(([platform, gs]) =>
    gs.flatMap((group) => ENGINES.filter((engine) => reaching(group, engine).length > 0).map((engine) => ({ platform, group, engine }))),
  );
  it.for(groups)("$platform $group.type: every failure of [$group.inputs.0.what, ...] in one answer ($engine)", async ({ group, engine }) => {
    const inputs = reaching(group, engine);
    const { shown } = await answerOf(group, engine);
    // One failure per input, each of them some input's.
    expect(shown.map((f) => f.text)).toHaveLength(inputs.length);
    for (const f of shown) expect(inputs.filter((input) => isFailureOf(f, input, engine)).map((i) => i.what), f.text).toHaveLength(1);
  });
});

describe("quantities such as 500m and 1Gi are accepted by each engine's check, with no platform call", () => {
  it.for(ENGINES)("%s", async (engine) => {
    const since = await s.seq();
    const inputs = { namespace: "team-a", resources: { cpuRequest: "500m", memoryLimit: "1Gi" }, network: { podCidr: "10.42.0.0/16" } };
    expect(await s.check(engine, "vcluster:VCluster", "quantities", inputs)).toEqual([]);
    expect(await s.callsSince(since)).toEqual([]);
  });
});
