// The least a Node Pulumi provider plugin does before printing its port: a grpc-js server (the
// library @pulumi/pulumi/provider serves with) bound to 127.0.0.1:0, no service, no provider code.
// Run from a folder whose node_modules holds @grpc/grpc-js (the benchmark's workspace).
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [process.cwd()] }));
const server = new grpc.Server();
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(`${port}\n`);
});
