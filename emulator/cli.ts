#!/usr/bin/env node
import "./quiet-sqlite-warning";
import { parseCliArgs, USAGE, UsageError } from "./cli-args";
import { startLocalControlPlane } from "./server";
import { runStateCommand } from "./state-cli";

/** Exit code for a bad command line, as most Unix tools use. */
const EXIT_USAGE = 2;

async function main(): Promise<void> {
  let command: ReturnType<typeof parseCliArgs>;
  try {
    command = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`clusterform-local: ${error.message}\n\n${USAGE}\n`);
    process.exit(EXIT_USAGE);
  }
  if (command.kind === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command.kind !== "start") {
    process.stdout.write(`clusterform-local: ${await runStateCommand(command)}\n`);
    return;
  }
  const plane = await startLocalControlPlane(command.options);
  process.stdout.write(`clusterform-local listening on ${plane.url}\n`);
  const shutdown = (): void => {
    plane.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`clusterform-local: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`clusterform-local: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
