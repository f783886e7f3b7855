import { existsSync, readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import * as path from "node:path";
import { type HttpRequest, type HttpResponse, type RouteHandler, sendJson } from "../http-json";
import type { World } from "../world";
import { AUDIT_TAIL, auditTail, type ConsoleSources, consoleState } from "./console-state";

/** How often the console's live stream looks for changes while a browser is connected. */
export const CONSOLE_TICK_MS = 500;
/** A comment line this often keeps proxies and browsers from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

/** The built assets (`npm run build` bundles them with rolldown): beside the compiled module, or under dist/ for the sources. */
export function consoleAssetsDir(): string | undefined {
  const candidates = [path.join(__dirname, "assets"), path.resolve(__dirname, "..", "..", "dist", "emulator", "console", "assets")];
  return candidates.find((dir) => existsSync(path.join(dir, "index.html")));
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** The console talks to this plane only: the browser is told so too. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** The kubeconfig admin routes of the platforms that have them, by the console's `api` parameter. */
const KUBECONFIG_ROUTES: Readonly<Record<string, string>> = { cmassh: "/_local/cmassh/kubeconfig", vcluster: "/_local/vcluster/kubeconfig" };

/** What the console is served from. */
export interface ConsoleDeps extends ConsoleSources {
  /** The platforms' admin actions (the kubeconfig downloads). */
  actions: Readonly<Record<string, Readonly<Record<string, (body: unknown, url: URL) => unknown>>>>;
  world: World;
}

interface Client {
  res: ServerResponse;
  /** The newest audit entry this browser has. */
  seq: number;
  state: string;
}

function send(res: ServerResponse, event: string, data: string): void {
  res.write(`event: ${event}\ndata: ${data}\n\n`);
}

function serveFile(res: HttpResponse, file: string): void {
  const body = readFileSync(file);
  res.statusCode = 200;
  res.setHeader("Content-Type", TYPES[path.extname(file)] ?? "application/octet-stream");
  res.setHeader("Content-Length", body.length);
  res.setHeader("Cache-Control", "no-cache");
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  (res as unknown as ServerResponse).end(body);
}

/** The web console: `/` and its assets, its live stream `/_local/console/events` (server-sent events) and kubeconfig downloads. */
export function createConsoleRoutes(deps: ConsoleDeps): { handler: RouteHandler; close(): void } {
  const clients = new Set<Client>();
  let timer: NodeJS.Timeout | undefined;
  let keepalive: NodeJS.Timeout | undefined;
  const tick = () => {
    const state = JSON.stringify(consoleState(deps));
    for (const client of clients) {
      const entries = deps.audit.listSince(client.seq);
      if (entries.length > 0) {
        client.seq = entries.at(-1)!.seq;
        send(client.res, "audit", JSON.stringify(entries));
      }
      if (state !== client.state) {
        client.state = state;
        send(client.res, "state", state);
      }
    }
  };
  const stopTimers = () => {
    clearInterval(timer);
    clearInterval(keepalive);
    timer = keepalive = undefined;
  };
  // A load or reset replaces the audit log: browsers start their timeline over.
  deps.world.onChange(() => {
    const tail = auditTail(deps.audit);
    for (const client of clients) {
      client.seq = tail.at(-1)?.seq ?? 0;
      send(client.res, "audit-reset", JSON.stringify(tail));
    }
  });
  const openStream = (req: HttpRequest, res: ServerResponse) => {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive", ...SECURITY_HEADERS });
    const tail = auditTail(deps.audit);
    const client: Client = { res, seq: tail.at(-1)?.seq ?? 0, state: JSON.stringify(consoleState(deps)) };
    send(res, "hello", JSON.stringify({ auditTail: AUDIT_TAIL, tickMs: CONSOLE_TICK_MS }));
    send(res, "audit-reset", JSON.stringify(tail));
    send(res, "state", client.state);
    clients.add(client);
    timer ??= setInterval(tick, CONSOLE_TICK_MS);
    keepalive ??= setInterval(() => {
      for (const c of clients) c.res.write(": keepalive\n\n");
    }, KEEPALIVE_MS);
    req.once("close", () => {
      clients.delete(client);
      if (clients.size === 0) stopTimers();
    });
  };
  const kubeconfig = (res: HttpResponse, url: URL) => {
    const api = url.searchParams.get("api") ?? "";
    const act = KUBECONFIG_ROUTES[api] ? deps.actions[KUBECONFIG_ROUTES[api]]?.GET : undefined;
    if (!act) return sendJson(res, 400, { error: `invalid query parameter "api": got "${api}", allowed: ${Object.keys(KUBECONFIG_ROUTES).join(", ")}` });
    let answer: { kubeconfig: string };
    try {
      answer = act(undefined, url) as { kubeconfig: string };
    } catch (error) {
      return sendJson(res, 404, { error: error instanceof Error ? error.message : String(error) });
    }
    const name = `${url.searchParams.get("name") ?? "cluster"}.kubeconfig`.replace(/[^A-Za-z0-9._-]/g, "_");
    res.statusCode = 200;
    res.setHeader("Content-Type", "application/yaml");
    res.setHeader("Content-Disposition", `attachment; filename="${name}"`);
    res.setHeader("Cache-Control", "no-store");
    res.end(answer.kubeconfig);
  };
  const handler: RouteHandler = async (req, res, url) => {
    if (req.method !== "GET") return false;
    if (url.pathname === "/_local/console/events") {
      openStream(req, res as unknown as ServerResponse);
      return true;
    }
    if (url.pathname === "/_local/console/state") {
      sendJson(res, 200, consoleState(deps));
      return true;
    }
    if (url.pathname === "/_local/console/kubeconfig") {
      kubeconfig(res, url);
      return true;
    }
    // `/` is also Senlin's version document, which OpenStack clients read (asking for JSON): the
    // console answers there only to a browser asking for HTML.
    if (url.pathname === "/" && !String(req.headers.accept ?? "").includes("text/html")) return false;
    const asset = url.pathname === "/" ? "index.html" : /^\/console\/([\w.-]+)$/.exec(url.pathname)?.[1];
    if (asset === undefined) return false;
    const dir = consoleAssetsDir();
    const file = dir && path.join(dir, asset);
    if (!file || !existsSync(file)) {
      sendJson(res, 404, { error: dir ? `no console asset ${asset}` : "the console is not built: run npm run build" });
      return true;
    }
    serveFile(res, file);
    return true;
  };
  return {
    handler,
    close() {
      stopTimers();
      for (const client of clients) client.res.end();
      clients.clear();
    },
  };
}
