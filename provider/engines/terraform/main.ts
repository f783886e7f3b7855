/**
 * The entry point of `terraform-provider-clusterform`: started by tofu or terraform, never by hand.
 * Logs go to stderr (tofu shows them with TF_LOG=debug); stdout carries the handshake line only.
 */
// First: the Node.js check runs before anything that needs a newer Node loads (its message goes to
// stderr: stdout carries only the handshake line).
import "../../../common/node-version";
import { servePlugin } from "./server";

servePlugin({
  env: process.env,
  announce: (line) => process.stdout.write(line),
  exit: (code) => process.exit(code),
  parentPid: () => process.ppid,
}).catch((err: unknown) => {
  process.stderr.write(`terraform-provider-clusterform: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
