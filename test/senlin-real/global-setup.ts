import * as path from "node:path";
import type { TestProject } from "vitest/node";
import { workDir } from "../harness/paths";
import { startRealSenlin } from "../harness/real-senlin";

declare module "vitest" {
  export interface ProvidedContext {
    /** The real Senlin this project's files share (test/harness/real-senlin.ts). */
    realSenlin: { keystoneUrl: string; senlinUrl: string; user: string; password: string; project: string };
  }
}

/**
 * Starts the real Senlin once for every file of the `senlin-real` project (about 65 s from nothing
 * on 2 cores) and stops it, every daemon, after the last one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const senlin = await startRealSenlin(path.join(workDir(), "real-senlin"));
  process.stderr.write(`[senlin-real] the real Senlin answers at ${senlin.senlinUrl} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  const { stop, ...endpoints } = senlin;
  project.provide("realSenlin", endpoints);
  return stop;
}
