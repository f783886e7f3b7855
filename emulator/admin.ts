import type { AuditLog } from "./audit";
import { assertChaosSeed } from "./chaos";
import { type FaultRegistry, FaultValidationError, type KnownOperations, parseFault } from "./faults";
import { type HttpRequest, type HttpResponse, type RouteHandler, readBody, sendJson } from "./http-json";
import { StateFileError } from "./state-file";
import type { World } from "./world";

/** Everything the admin API exposes. */
export interface AdminDeps {
  audit: AuditLog;
  faults: FaultRegistry;
  /** API and operation names faults may name. */
  knownOperations: KnownOperations;
  /** Fault actions platforms add beyond the built-in ones. @default [] */
  extraActions?: readonly string[];
  /** Read-only internal views by path, e.g. `"/_local/cmassh/clusters"`. */
  views: Readonly<Record<string, () => unknown>>;
  /** Admin actions by path and HTTP method; each gets the JSON body (or undefined) and answers JSON. @default {} */
  actions?: Readonly<Record<string, Readonly<Record<string, (body: unknown, url: URL) => unknown | Promise<unknown>>>>>;
  /** Save, load and reset of the whole plane. @default none: those routes answer 404 */
  world?: World;
}

/** The largest saved plane `PUT /_local/state` accepts: a full audit log is some tens of MB. */
const MAX_STATE_BYTES = 1024 * 1024 * 1024;

type AdminAction = (req: HttpRequest, res: HttpResponse, url: URL) => Promise<void> | void;

/** Thrown by admin actions for a request they reject with 400. */
export class BadRequest extends Error {}

function parseSince(url: URL): number {
  const raw = url.searchParams.get("since") ?? "0";
  const since = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(since)) {
    throw new BadRequest(`invalid query parameter "since": got "${raw}", expected a non-negative integer`);
  }
  return since;
}

async function readJsonBody(req: HttpRequest): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest("invalid body: expected a JSON object");
  }
}

/** Admin routes by path, then by HTTP method. */
function adminRoutes(deps: AdminDeps): Map<string, Record<string, AdminAction>> {
  const routes = new Map<string, Record<string, AdminAction>>([
    ["/_local/health", { GET: (_req, res) => sendJson(res, 200, { status: "ok" }) }],
    [
      "/_local/audit",
      {
        GET: (_req, res, url) => {
          const since = parseSince(url);
          const entries = deps.audit.listSince(since);
          sendJson(res, 200, { entries, next: entries.at(-1)?.seq ?? since });
        },
      },
    ],
    [
      "/_local/faults",
      {
        GET: (_req, res) => sendJson(res, 200, { faults: deps.faults.list(), seed: deps.faults.chaos.seed }),
        POST: async (req, res) => {
          const fault = deps.faults.add(parseFault(await readJsonBody(req), deps.knownOperations, deps.extraActions));
          sendJson(res, 200, { id: fault.id });
        },
        DELETE: (_req, res, url) => {
          const id = url.searchParams.get("id");
          if (id === null) deps.faults.clear();
          else if (!deps.faults.remove(id)) throw new BadRequest(`no fault with id "${id}"`);
          sendJson(res, 200, {});
        },
      },
    ],
    [
      "/_local/faults/seed",
      {
        POST: async (req, res) => {
          const seed = ((await readJsonBody(req)) as { seed?: unknown } | undefined)?.seed;
          try {
            assertChaosSeed(seed);
          } catch (error) {
            throw new BadRequest(`invalid body: field "seed": ${(error as Error).message}`);
          }
          deps.faults.chaos.reseed(seed);
          sendJson(res, 200, { seed });
        },
      },
    ],
  ]);
  const world = deps.world;
  if (world) {
    routes.set("/_local/state", {
      GET: (_req, res) => sendJson(res, 200, world.save()),
      PUT: async (req, res) => {
        const text = await readBody(req, MAX_STATE_BYTES);
        let doc: unknown;
        try {
          doc = JSON.parse(text);
        } catch {
          throw new BadRequest("invalid saved state: not JSON");
        }
        await world.load(doc);
        sendJson(res, 200, {});
      },
    });
    routes.set("/_local/reset", {
      POST: async (_req, res) => {
        await world.reset();
        sendJson(res, 200, {});
      },
    });
  }
  for (const [path, view] of Object.entries(deps.views)) {
    routes.set(path, { GET: (_req, res) => sendJson(res, 200, view()) });
  }
  for (const [path, methods] of Object.entries(deps.actions ?? {})) {
    const entry = { ...routes.get(path) };
    for (const [method, act] of Object.entries(methods)) {
      entry[method] = async (req, res, url) => sendJson(res, 200, (await act(await readJsonBody(req), url)) ?? {});
    }
    routes.set(path, entry);
  }
  return routes;
}

/** The admin API under `/_local/`, for tests and tooling; its calls are not audited. */
export function createAdminHandler(deps: AdminDeps): RouteHandler {
  const routes = adminRoutes(deps);
  return async (req, res, url) => {
    if (!url.pathname.startsWith("/_local/")) return false;
    const methods = routes.get(url.pathname);
    if (!methods) {
      sendJson(res, 404, { error: `no admin endpoint at ${url.pathname}` });
      return true;
    }
    const action = methods[req.method ?? ""];
    if (!action) {
      res.setHeader("Allow", Object.keys(methods).join(", "));
      sendJson(res, 405, { error: `${req.method} not allowed on ${url.pathname}; allowed: ${Object.keys(methods).join(", ")}` });
      return true;
    }
    try {
      await action(req, res, url);
    } catch (error) {
      if (!(error instanceof BadRequest || error instanceof FaultValidationError || error instanceof StateFileError)) throw error;
      sendJson(res, 400, { error: error.message });
    }
    return true;
  };
}
