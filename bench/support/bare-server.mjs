// The baseline of bench/plane-load.run.ts: the least a Node server can do per request, in its own
// process like the plane. `json <bytes>`: node:http answering every request with a fixed JSON body
// of that size. `grpc <workspace> <reply-json>`: connect-node over h2c serving cma-ssh GetCluster
// and ScaleNodePool with fixed replies (the generated code and connect-node of the installed
// package). Prints "listening on http://127.0.0.1:<port>" once ready.
import * as http from "node:http";
import * as http2 from "node:http2";
import { createRequire } from "node:module";
import * as path from "node:path";

const [mode, arg, replyJson] = process.argv.slice(2);

function jsonServer(bytes) {
  const filler = "x".repeat(Math.max(0, bytes - 12));
  const body = Buffer.from(JSON.stringify({ data: filler }));
  return http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
  });
}

function grpcServer(workspace) {
  const require = createRequire(path.join(workspace, "node_modules", "clusterform", "package.json"));
  const { connectNodeAdapter } = require("@connectrpc/connect-node");
  const { fromJson } = require("@bufbuild/protobuf");
  const gen = require("./dist/proto/gen/cmassh/api_pb.js");
  const reply = fromJson(gen.GetClusterReplySchema, JSON.parse(replyJson));
  const handler = connectNodeAdapter({
    routes: (router) => router.service(gen.Cluster, { getCluster: () => reply, scaleNodePool: () => ({ ok: true }) }),
  });
  return http2.createServer(handler);
}

const server = mode === "grpc" ? grpcServer(arg) : jsonServer(Number(arg));
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.once("SIGTERM", () => process.exit(0));
