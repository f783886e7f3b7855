import { ClusterformError } from "../../core/errors";

/** One endpoint of a catalog service. */
export interface CatalogEndpoint {
  /** `public`, `internal` or `admin`. */
  interface: string;
  /** Region id, e.g. `RegionOne`. */
  region: string;
  url: string;
}

/** One service of a token's catalog. */
export interface CatalogService {
  /** Service type, e.g. `clustering`. */
  type: string;
  /** Service name, e.g. `senlin`. */
  name: string;
  endpoints: CatalogEndpoint[];
}

/** Which endpoint of a service to use. */
export interface EndpointFilter {
  /** The endpoint interface. @default "public" */
  interface?: string;
  /** The region; any region when undefined. @default undefined */
  region?: string;
}

/** Reads the catalog of a token response, tolerating missing fields. */
export function parseCatalog(raw: unknown): CatalogService[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((service: Record<string, unknown>) => ({
    type: String(service.type ?? ""),
    name: String(service.name ?? ""),
    endpoints: (Array.isArray(service.endpoints) ? service.endpoints : []).map((e: Record<string, unknown>) => ({
      interface: String(e.interface ?? ""),
      region: String(e.region_id ?? e.region ?? ""),
      url: String(e.url ?? ""),
    })),
  }));
}

/**
 * The URL of a service's endpoint for the interface and region.
 * @throws ClusterformError NotFound listing what the catalog has instead.
 */
export function findEndpoint(catalog: readonly CatalogService[], type: string, filter: EndpointFilter = {}): string {
  const wantedInterface = filter.interface ?? "public";
  const endpoints = catalog.filter((s) => s.type === type).flatMap((s) => s.endpoints);
  const match = endpoints.find((e) => e.interface === wantedInterface && (filter.region === undefined || e.region === filter.region));
  if (match) return match.url.replace(/\/+$/, "");
  const region = filter.region === undefined ? "any region" : `region "${filter.region}"`;
  const available = endpoints.map((e) => `${e.interface} in ${e.region}`).join(", ");
  throw new ClusterformError({
    code: "NotFound",
    platformCode: "NO_ENDPOINT",
    operation: `finding the "${type}" endpoint in the Keystone catalog`,
    platformMessage: `no ${wantedInterface} endpoint in ${region}; ${available ? `the catalog has: ${available}` : `the catalog has no "${type}" service`}`,
  });
}
