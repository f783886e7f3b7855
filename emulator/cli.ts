#!/usr/bin/env node
// First: the Node.js check runs before anything that needs a newer Node (node:sqlite) loads.
import "../common/node-version";
import "./quiet-sqlite-warning";
import { parseCliArgs, USAGE, UsageError } from "./cli-args";
import { removePidFile, StopError, stopPlane, writePidFile } from "./pid-file";
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
  if (command.kind === "stop") {
    try {
      const pid = await stopPlane(command.pidFile);
      process.stdout.write(`clusterform-local (process ${pid}) stopped\n`);
    } catch (error) {
      if (!(error instanceof StopError)) throw error;
      process.stderr.write(`clusterform-local stop: ${error.message}\n`);
      process.exit(1);
    }
    return;
  }
  if (command.kind !== "start") {
    process.stdout.write(`clusterform-local: ${await runStateCommand(command)}\n`);
    return;
  }
  const plane = await startLocalControlPlane(command.options);
  const { pidFile } = command;
  const shutdown = (): void => {
    plane.close().then(
      () => {
        removePidFile(pidFile);
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`clusterform-local: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  // Before the pid file and the listening line: whoever reads either may send a signal at once.
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  try {
    writePidFile(pidFile);
  } catch (error) {
    await plane.close();
    throw new Error(`cannot write the pid file ${pidFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.stdout.write(`clusterform-local listening on ${plane.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`clusterform-local: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
