import type { CallContext } from "../calls";
import type { Clock } from "../clock";
import type { TokenInfo } from "../keystone/tokens";
import { httpBadRequest, notFound, SenlinError } from "./errors";
import type { Microversion } from "./microversion";
import type { Owner } from "./records";
import type { DocTable, SenlinStore } from "./store";

/** What Senlin's handlers share. */
export interface SenlinEnv {
  store: SenlinStore;
  clock: Clock;
  /** Multiplies every action duration. */
  timeScale: number;
  /** The newest microversion this server answers (a module option, to play an older server). */
  maxVersion: Microversion;
  /** The server's root URL, for the links it answers (webhook URLs). */
  rootUrl(): string;
}

/** One authenticated request as a handler sees it. */
export interface SenlinRequest {
  env: SenlinEnv;
  token: TokenInfo;
  /** The negotiated microversion. */
  version: Microversion;
  /** Path parameters by name, e.g. `cluster_id`. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when empty. */
  body: unknown;
  /** The call pipeline's context (operation failures a fault asks for). */
  call: CallContext;
  nowMs: number;
}

/** A handler's answer: status, body (undefined for none) and the action a `Location` points at. */
export interface SenlinReply {
  status: number;
  body?: unknown;
  /** Action id: the reply carries `Location: /v1/actions/<id>`. */
  actionId?: string;
}

/** The owner of objects the request creates. */
export function ownerOf(req: SenlinRequest): Owner {
  return { user: req.token.userId, project: req.token.projectId, domain: req.token.domainId };
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function single<T>(matches: T[], identity: string): T | undefined {
  if (matches.length > 1) {
    throw new SenlinError("MultipleChoices", `Multiple results found matching the query criteria '${identity}'. Please be more specific.`);
  }
  return matches[0];
}

/**
 * Finds an object by UUID, name or short id (an id prefix) within the caller's project, as
 * Senlin's `find` does: a UUID is tried as an id first, other text as a name first.
 * @throws SenlinError 404 when nothing matches, 400 MultipleChoices when a name or prefix is ambiguous.
 */
export function findIn<T extends { id: string; project: string; name: string }>(
  table: DocTable<T>,
  project: string,
  identity: string,
  kind: string,
): T {
  const byId = (): T | undefined => {
    const found = table.get(identity);
    return found?.project === project ? found : undefined;
  };
  const found = UUID.test(identity)
    ? (byId() ?? single(table.byName(project, identity), identity))
    : (single(table.byName(project, identity), identity) ?? single(table.byIdPrefix(project, identity), identity));
  if (!found) throw notFound(kind, identity);
  return found;
}

/** A required JSON object body wrapped in `key` (`{"cluster": {...}}`). */
export function wrappedBody(req: SenlinRequest, key: string): Record<string, unknown> {
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw httpBadRequest("The request body is malformed: expected a JSON object.");
  const inner = (body as Record<string, unknown>)[key];
  if (typeof inner !== "object" || inner === null || Array.isArray(inner)) throw httpBadRequest(`Malformed request data, missing '${key}' key in request body.`);
  return inner as Record<string, unknown>;
}
