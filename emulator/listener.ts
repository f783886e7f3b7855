import type * as http from "node:http";
import type * as http2 from "node:http2";
import * as net from "node:net";

/** The client connection preface every prior-knowledge HTTP/2 connection starts with (RFC 9113 §3.4). */
const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** Which protocol a connection speaks, judged from its first bytes. */
export type SniffResult = "http2" | "http1" | "undecided";

/**
 * Classifies the bytes received so far: HTTP/2 when they are the preface, HTTP/1.x as soon as they
 * diverge from it, undecided while they are a strict prefix of it.
 */
export function sniffProtocol(head: Buffer): SniffResult {
  const length = Math.min(head.length, HTTP2_PREFACE.length);
  if (!head.subarray(0, length).equals(HTTP2_PREFACE.subarray(0, length))) return "http1";
  return head.length >= HTTP2_PREFACE.length ? "http2" : "undecided";
}

/** The two protocol servers a multiplexed listener hands connections to. */
export interface ProtocolServers {
  http1: http.Server;
  http2: http2.Http2Server;
}

/** A listening multiplexer. */
export interface MultiplexedListener {
  /** The TCP server; call `listen` on it. */
  server: net.Server;
  /** Stops accepting and destroys every open connection, resolving once the server has closed. */
  close(): Promise<void>;
}

/**
 * Creates one TCP server that peeks at each connection and hands it to the HTTP/2 or the HTTP/1.1
 * server, the way cma-ssh's cmux serves gRPC and the REST gateway on one port.
 */
export function createMultiplexedListener(servers: ProtocolServers): MultiplexedListener {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    routeConnection(socket, servers);
  });
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // The protocol servers never listen themselves: their keep-alive sockets must be ended here.
      for (const socket of sockets) socket.destroy();
    });
  return { server, close };
}

function routeConnection(socket: net.Socket, servers: ProtocolServers): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    const verdict = sniffProtocol(head);
    if (verdict === "undecided") return;
    socket.off("data", onData);
    socket.off("end", onEnd);
    socket.pause();
    // Put the peeked bytes back so the chosen server parses the connection from its first byte.
    socket.unshift(head);
    if (verdict === "http2") {
      // The HTTP/2 session reads buffered bytes itself; resuming here would drop them.
      servers.http2.emit("connection", socket);
      return;
    }
    servers.http1.emit("connection", socket);
    socket.resume();
  };
  const onEnd = (): void => {
    socket.destroy();
  };
  socket.on("data", onData);
  socket.on("end", onEnd);
  socket.on("error", () => socket.destroy());
}
