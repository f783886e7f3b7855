// The least a Node Pulumi provider plugin does before printing its port: a grpc-js server (the
// library @pulumi/pulumi/provider serves with) bound to 127.0.0.1:0, no service, no provider code.
// Run from a folder whose node_modules holds @grpc/grpc-js (the benchmark's workspace). With
// CLUSTERFORM_FLOOR_HTTP2=1, a bare node:http2 server without TLS instead: the least any gRPC server
// written for Node loads, whatever its library.
if (process.env.CLUSTERFORM_FLOOR_HTTP2 === "1") {
  const server = require("node:http2").createServer();
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
} else {
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [process.cwd()] }));
  const server = new grpc.Server();
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) throw err;
    process.stdout.write(`${port}\n`);
  });
}
