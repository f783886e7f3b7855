// The least a Node OpenTofu provider can do in a no-change plan: the go-plugin handshake of
// handshake-floor.cjs (node:http2 over TLS, the client's certificate required), then every call
// answered with no provider work at all. Requests are read with a few lines of protobuf wire
// decoding (no gRPC or protobuf library to load) and answered from bytes made ahead or by echoing
// what tofu sent: the prior state back from ReadResource and UpgradeResourceState, the proposed
// state as the plan. bench/release-start.run.ts runs a 100-resource plan against it, beside the
// real provider's and beside 100 terraform_data: what a plan costs that only starts a Node
// provider three times and moves its calls, the floor of any provider written for Node.
//
// Environment: CLUSTERFORM_FLOOR_KEY and CLUSTERFORM_FLOOR_CERT (the server's key and certificate,
// PEM), CLUSTERFORM_FLOOR_ANSWERS (a JSON file: the GetMetadata and GetProviderSchema responses as
// base64 protobuf), and what tofu sets (PLUGIN_CLIENT_CERT).
const http2 = require("node:http2");
const { readFileSync } = require("node:fs");

const env = process.env;
const made = JSON.parse(readFileSync(env.CLUSTERFORM_FLOOR_ANSWERS, "utf8"));
const answers = {
  "/tfplugin6.Provider/GetMetadata": () => Buffer.from(made.GetMetadata, "base64"),
  "/tfplugin6.Provider/GetProviderSchema": () => Buffer.from(made.GetProviderSchema, "base64"),
  // UpgradeResourceState.Request.raw_state (3) .json (1) -> Response.upgraded_state (1) as DynamicValue.json (2).
  "/tfplugin6.Provider/UpgradeResourceState": (req) => field(1, field(2, fieldsOf(fieldsOf(req).get(3) ?? Buffer.alloc(0)).get(1) ?? Buffer.alloc(0))),
  // ReadResource.Request.current_state (2), private (3) -> Response.new_state (1), private (3).
  "/tfplugin6.Provider/ReadResource": (req) => echo(req, [[2, 1], [3, 3]]),
  // PlanResourceChange.Request.proposed_new_state (3), prior_private (5) -> Response.planned_state (1), planned_private (3).
  "/tfplugin6.Provider/PlanResourceChange": (req) => echo(req, [[3, 1], [5, 3]]),
  "/tfplugin6.Provider/ValidateResourceConfig": () => Buffer.alloc(0),
  "/tfplugin6.Provider/ValidateProviderConfig": () => Buffer.alloc(0),
  "/tfplugin6.Provider/ConfigureProvider": () => Buffer.alloc(0),
  "/tfplugin6.Provider/StopProvider": () => Buffer.alloc(0),
  "/plugin.GRPCController/Shutdown": () => {
    setTimeout(() => process.exit(0), 5);
    return Buffer.alloc(0);
  },
};

/** Reads a base-128 varint at `at`: [value, next offset]. */
function varint(buf, at) {
  let value = 0;
  let shift = 1;
  for (;;) {
    const byte = buf[at++];
    value += (byte & 0x7f) * shift;
    if (byte < 0x80) return [value, at];
    shift *= 128;
  }
}

/** The length-delimited fields of a message, by number (the last of each); other wire types skipped. */
function fieldsOf(buf) {
  const out = new Map();
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = varint(buf, at);
    at = next;
    const wire = tag % 8;
    if (wire === 2) {
      const [length, start] = varint(buf, at);
      out.set(Math.floor(tag / 8), buf.subarray(start, start + length));
      at = start + length;
    } else if (wire === 0) at = varint(buf, at)[1];
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

function lengthPrefix(n) {
  const bytes = [];
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** One length-delimited field. */
function field(number, bytes) {
  return Buffer.concat([lengthPrefix(number * 8 + 2), lengthPrefix(bytes.length), bytes]);
}

/** A response made of request fields copied under other numbers: [from, to] pairs. */
function echo(req, pairs) {
  const fields = fieldsOf(req);
  return Buffer.concat(pairs.filter(([from]) => fields.has(from)).map(([from, to]) => field(to, fields.get(from))));
}

const server = http2.createSecureServer({
  key: env.CLUSTERFORM_FLOOR_KEY,
  cert: env.CLUSTERFORM_FLOOR_CERT,
  ca: [env.PLUGIN_CLIENT_CERT],
  requestCert: true,
  rejectUnauthorized: true,
});
server.on("stream", (stream, headers) => {
  const chunks = [];
  stream.on("data", (chunk) => chunks.push(chunk));
  stream.on("end", () => {
    const answer = answers[headers[":path"]];
    if (!answer) {
      stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" }, { endStream: true });
      return;
    }
    const body = Buffer.concat(chunks);
    const message = answer(body.subarray(5, 5 + body.readUInt32BE(1)));
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(frame);
  });
});
server.listen(0, "127.0.0.1", () => {
  const der = Buffer.from(env.CLUSTERFORM_FLOOR_CERT.replace(/-----[A-Z ]+-----|\s/g, ""), "base64");
  process.stdout.write(`1|6|tcp|127.0.0.1:${server.address().port}|grpc|${der.toString("base64").replace(/=+$/, "")}\n`);
});
