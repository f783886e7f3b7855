import { formatMicroversion, MIN_MICROVERSION, type Microversion } from "./microversion";

/** The operation names the unauthenticated discovery documents are audited under. */
export const DISCOVERY_OPERATIONS = ["ListVersions", "GetVersion"] as const;

/** One discovery document: its status (300 for the list, as Senlin's versions app answers) and body. */
export interface DiscoveryReply {
  operation: (typeof DISCOVERY_OPERATIONS)[number];
  status: number;
  body: unknown;
}

/** Senlin's only major version, as `version_info` describes it (links to `<root>/v1`). */
function versionInfo(rootUrl: string, max: Microversion): Record<string, unknown> {
  return {
    id: "1.0",
    status: "CURRENT",
    updated: "2016-01-18T00:00:00Z",
    "media-types": [{ base: "application/json", type: "application/vnd.openstack.clustering-v1+json" }],
    links: [
      { href: `${rootUrl.replace(/\/+$/, "")}/v1`, rel: "self" },
      { rel: "help", href: "https://docs.openstack.org/api-ref/clustering" },
    ],
    min_version: formatMicroversion(MIN_MICROVERSION),
    max_version: formatMicroversion(max),
  };
}

/**
 * What Senlin's version negotiation answers without a token: the root and `/versions` list the
 * versions (300 Multiple Choices), `/v1` and `/v1/` describe v1 (200). The catalog lists Senlin at
 * the root, so clients (keystoneauth, openstacksdk) read the root first to find `/v1` and the
 * microversion range. Undefined for any other request.
 */
export function discoveryReply(method: string, pathname: string, rootUrl: string, max: Microversion): DiscoveryReply | undefined {
  if (method !== "GET") return undefined;
  if (pathname === "/" || pathname === "/versions" || pathname === "/versions/") {
    return { operation: "ListVersions", status: 300, body: { versions: [versionInfo(rootUrl, max)] } };
  }
  if (pathname === "/v1" || pathname === "/v1/") return { operation: "GetVersion", status: 200, body: { version: versionInfo(rootUrl, max) } };
  return undefined;
}
