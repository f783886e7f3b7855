// The least a Node OpenTofu provider does before its go-plugin handshake line: an HTTP/2 server
// over TLS that requires the client's certificate (AutoMTLS), listening on 127.0.0.1. No gRPC, no
// provider code; the certificate and key come ready-made in the environment. bench/release-start.run.ts
// times it beside a bare Node start, as the floor of what a start can cost with node:http2 and node:tls.
const http2 = require("node:http2");
const { CLUSTERFORM_FLOOR_KEY: key, CLUSTERFORM_FLOOR_CERT: cert, PLUGIN_CLIENT_CERT: client } = process.env;
const server = http2.createSecureServer({ key, cert, ca: [client], requestCert: true, rejectUnauthorized: true });
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`1|6|tcp|127.0.0.1:${server.address().port}|grpc|floor\n`);
});
