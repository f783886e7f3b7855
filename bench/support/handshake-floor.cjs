// The least a Node OpenTofu provider does before its go-plugin handshake line: an HTTP/2 server
// over TLS that requires the client's certificate (AutoMTLS), listening on 127.0.0.1. No gRPC, no
// provider code; the certificate and key come ready-made in the environment, or, with
// CLUSTERFORM_FLOOR_CERTIFICATE naming the provider's compiled certificate.js, are made at start as a
// provider must (AutoMTLS: a fresh key per process). bench/release-start.run.ts times it beside a bare
// Node start, as the floor of what a start can cost with node:http2 and node:tls.
const http2 = require("node:http2");
const { CLUSTERFORM_FLOOR_CERTIFICATE: maker, PLUGIN_CLIENT_CERT: client } = process.env;
const made = maker ? require(maker).createPluginCertificate() : undefined;
const key = made ? made.keyPem : process.env.CLUSTERFORM_FLOOR_KEY;
const cert = made ? made.certPem : process.env.CLUSTERFORM_FLOOR_CERT;
const server = http2.createSecureServer({ key, cert, ca: [client], requestCert: true, rejectUnauthorized: true });
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`1|6|tcp|127.0.0.1:${server.address().port}|grpc|floor\n`);
});
