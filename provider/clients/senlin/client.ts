import type { Clock, Deadline } from "../../core/deadline";
import type { Sleep } from "../../core/retry";
import { createKeystoneClient, type KeystoneClient, type KeystoneCredentials } from "../keystone/client";
import { createRestCaller } from "../shared/rest-caller";
import { type SenlinClusterMethods, clusterMethods } from "./cluster-methods";
import { objectMethods, type SenlinObjectMethods } from "./object-methods";
import { discoverSenlin, type SenlinVersion } from "./discovery";
import { createSenlinTransport } from "./transport";

export type { RestCallOptions as CallOptions } from "../shared/rest-caller";
export type { RecoverParams } from "./cluster-methods";

/** Options of {@link createSenlinClient}. */
export interface SenlinClientOptions {
  /** Keystone password credentials; the token is cached per process and renewed before expiry or on 401. */
  credentials: KeystoneCredentials;
  /**
   * Use this Senlin URL instead of the catalog's `clustering` endpoint. Either way the URL's version
   * document is read first (as keystoneauth does) for v1's URL and newest microversion; without one,
   * `/v1` is added when missing. @default the catalog's
   */
  endpoint?: string;
  /** Region of the catalog endpoint. @default any region */
  region?: string;
  /** Interface of the catalog endpoint. @default "public" */
  interface?: string;
  /** Start of every `X-OpenStack-Request-ID` (OpenStack accepts only `req-<uuid>` as a global id). @default "req" */
  requestIdPrefix?: string;
  /** Time limit of one request, cut to what the deadline has left. @default 30000 */
  callTimeoutMs?: number;
  /** Deadline of a call, retries included, when the caller gives none. @default 120000 */
  defaultDeadlineMs?: number;
  /** Sleep between retries (tests pass a fake). @default real timers */
  sleep?: Sleep;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Clock of deadlines and token lifetimes. @default Date.now */
  clock?: Clock;
  /** How long an unreachable Keystone or Senlin is retried before a call fails. @default 60000 */
  unreachableTimeoutMs?: number;
}

/**
 * OpenStack Senlin's v1 API with plain objects in and out. Errors are ClusterformErrors whose
 * operation names the object; reads and deletes retry transient errors within the deadline,
 * creates and actions do not (the resource layer checks and adopts). Every call sends the
 * microversion it needs; a server too old for it fails with FailedPrecondition saying so.
 */
export interface SenlinClient extends SenlinClusterMethods, SenlinObjectMethods {
  /** The Keystone client authenticating the calls. */
  readonly keystone: KeystoneClient;
  /** The Senlin base URL (`…/v1`) the calls go to: the override or the catalog's. */
  baseUrl(deadline?: Deadline): Promise<string>;
}

export { senlinBase } from "./discovery";

/** Creates a Senlin client authenticated through Keystone. */
export function createSenlinClient(options: SenlinClientOptions): SenlinClient {
  const keystone = createKeystoneClient({ ...options.credentials, ...pick(options) });
  // Discovered once per client, as keystoneauth caches its discovery; a transient failure is not kept.
  let discovered: Promise<SenlinVersion> | undefined;
  const discover = async (deadline?: Deadline): Promise<SenlinVersion> => {
    if (!discovered) {
      const endpoint = options.endpoint ?? (await keystone.endpoint("clustering", { region: options.region, interface: options.interface }, deadline));
      const timeoutMs = Math.max(1, Math.min(options.callTimeoutMs ?? 30_000, deadline?.remainingMs() ?? Number.POSITIVE_INFINITY));
      const pending = discoverSenlin(endpoint, timeoutMs);
      discovered = pending;
      // A transient failure is not remembered: the next call looks again.
      pending.then((found) => {
        if (found.transient && discovered === pending) discovered = undefined;
      });
    }
    return discovered;
  };
  const baseUrl = async (deadline?: Deadline) => (await discover(deadline)).baseUrl;
  const caller = createRestCaller({
    ...pick(options),
    baseUrl,
    auth: keystone,
    requestIdHeader: "X-OpenStack-Request-ID",
    requestIdPrefix: options.requestIdPrefix ?? "req",
  });
  const transport = createSenlinTransport(caller, async () => (await discover()).maxVersion);
  return { keystone, baseUrl, ...clusterMethods(transport), ...objectMethods(transport) };
}

/** The call settings Keystone and Senlin calls share. */
function pick(options: SenlinClientOptions) {
  const { callTimeoutMs, defaultDeadlineMs, sleep, random, clock, unreachableTimeoutMs } = options;
  return { callTimeoutMs, defaultDeadlineMs, sleep, random, clock, unreachableTimeoutMs };
}
