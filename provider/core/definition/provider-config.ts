/**
 * The provider's configuration, written once: stack config `clusterform:<key>` for the default
 * provider, the same keys as inputs of an explicit provider resource (`clusterform.Provider`,
 * `provider "clusterform"` in HCL), and the environment variable each falls back to. The readers in
 * provider/core/config.ts, provider/kinds/cyclecloud/common.ts and
 * provider/kinds/openstack/credentials.ts resolve them at call time.
 */
export interface ConfigVariable {
  /** The key after `clusterform:`. */
  key: string;
  description: string;
  /** The environment variable read when the key is not set. */
  env?: string;
  /** A credential: secret in state and in every engine. @default false */
  secret?: boolean;
}

const PLATFORM_NAMES = { cmassh: "cma-ssh", cyclecloud: "Azure CycleCloud", senlin: "OpenStack Senlin", peloton: "Uber Peloton", vcluster: "vcluster" };

const endpoints: ConfigVariable[] = Object.entries(PLATFORM_NAMES).map(([api, name]) => ({
  key: `${api}Endpoint`,
  description: `The ${name} API's base URL; wins over \`endpoint\` for ${name}.`,
  env: `CLUSTERFORM_${api.toUpperCase()}_ENDPOINT`,
}));

const openstack: ConfigVariable[] = [
  { key: "senlinAuthUrl", description: "Keystone's URL (OpenStack auth URL).", env: "OS_AUTH_URL" },
  { key: "senlinUsername", description: "OpenStack user name.", env: "OS_USERNAME" },
  { key: "senlinPassword", description: "OpenStack password.", env: "OS_PASSWORD", secret: true },
  { key: "senlinProjectName", description: "OpenStack project name.", env: "OS_PROJECT_NAME" },
  { key: "senlinUserDomainName", description: "The user's domain.", env: "OS_USER_DOMAIN_NAME" },
  { key: "senlinProjectDomainName", description: "The project's domain.", env: "OS_PROJECT_DOMAIN_NAME" },
  { key: "senlinRegion", description: "OpenStack region of the Senlin endpoint.", env: "OS_REGION_NAME" },
  { key: "senlinInterface", description: "Catalog interface: public, internal or admin.", env: "OS_INTERFACE" },
  { key: "senlinCloud", description: "A cloud of clouds.yaml to take the credentials from.", env: "OS_CLOUD" },
];

/** Every configuration variable of the provider. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  {
    key: "endpoint",
    description: "Base URL of every platform API not given its own endpoint; the default is the local control plane.",
    env: "CLUSTERFORM_ENDPOINT",
  },
  ...endpoints,
  {
    key: "unreachableTimeout",
    description: 'How long an unreachable platform is retried before an operation fails, as a duration such as "2m".',
    env: "CLUSTERFORM_UNREACHABLE_TIMEOUT",
  },
  { key: "callTimeout", description: 'The time limit of one platform call, as a duration such as "30s".', env: "CLUSTERFORM_CALL_TIMEOUT" },
  { key: "cyclecloudUsername", description: "Azure CycleCloud user name.", env: "CLUSTERFORM_CYCLECLOUD_USERNAME" },
  { key: "cyclecloudPassword", description: "Azure CycleCloud password.", env: "CLUSTERFORM_CYCLECLOUD_PASSWORD", secret: true },
  ...openstack,
];
