import * as http from "node:http";

/** One request the proxy passed on, with the answer's status. */
export interface RecordedCall {
  method: string;
  /** The path without the query. */
  path: string;
  status: number;
  /** The JSON body's keys (a Senlin cluster action's name is its one key). */
  bodyKeys: string[];
}

/** A proxy in front of a real Keystone and Senlin that records every call, as the plane's audit would. */
export interface RecordingProxy {
  /** The proxy's root: `<url>/v3` is Keystone, everything else Senlin. */
  url: string;
  /** Calls recorded after `since` (an index into the list). */
  calls(since?: number): RecordedCall[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 (port 0): `/v3...` goes to `keystone` (its `/v3` root), the rest to
 * `senlin`. The real servers keep no audit log: this is how a test sees what the provider sent them.
 */
export async function startRecordingProxy(keystone: string, senlin: string): Promise<RecordingProxy> {
  const recorded: RecordedCall[] = [];
  const keystoneRoot = new URL(keystone.replace(/\/v3\/?$/, ""));
  const senlinRoot = new URL(senlin);
  const server = http.createServer(async (req, res) => {
    const path = req.url ?? "/";
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let bodyKeys: string[] = [];
    try {
      const parsed: unknown = body.length > 0 ? JSON.parse(body.toString("utf8")) : undefined;
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) bodyKeys = Object.keys(parsed);
    } catch {
      // Not JSON: no keys.
    }
    const target = path.startsWith("/v3") ? keystoneRoot : senlinRoot;
    const headers = { ...req.headers, host: target.host, "content-length": String(body.length) };
    const record = (status: number) => recorded.push({ method: req.method ?? "", path: path.split("?")[0], status, bodyKeys });
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path, headers }, (answer) => {
      record(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.once("error", (error) => {
      record(502);
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: (since = 0) => recorded.slice(since),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
