import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseSavedState, StateFileError } from "./state-file";

/** A state command: save the running plane to a file, load one into it, or reset it. */
export type StateCommand = { kind: "save" | "load"; url: string; file: string } | { kind: "reset"; url: string };

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and puts what happened (ECONNREFUSED ...) in its cause.
  return (error.cause as Error | undefined)?.message ?? error.message;
}

async function call(url: string, init?: RequestInit): Promise<string> {
  const origin = new URL(url).origin;
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error(`no plane answers at ${origin} (${messageOf(error)})`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new Error(`the plane at ${origin} stopped answering ${init?.method ?? "GET"} ${new URL(url).pathname} midway (${messageOf(error)})`);
  }
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      // Not JSON: the text as it came.
    }
    throw new Error(`${init?.method ?? "GET"} ${new URL(url).pathname}: HTTP ${response.status}: ${message}`);
  }
  return text;
}

/**
 * Checks that what the plane answered is a whole saved plane before it replaces a file: an answer
 * cut short, or one from something that is not clusterform-local, must not become the file.
 */
function checkSaved(url: string, text: string): void {
  try {
    parseSavedState(JSON.parse(text));
  } catch (error) {
    const why = error instanceof StateFileError ? error.message : `not JSON (${messageOf(error)})`;
    throw new Error(`${url}/_local/state did not answer a whole saved plane, so nothing was written: ${why}`);
  }
}

/**
 * Writes `text` to `file` whole or not at all: into a file of its own beside it, renamed over
 * `file` once complete. A write that fails (a full disk, a file size limit) leaves `file` as it was
 * and removes its own file.
 */
function writeWhole(file: string, text: string): void {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString("hex")}.partial`);
  try {
    writeFileSync(partial, text, { mode: 0o600, flag: "wx" });
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new Error(`cannot write ${file}, left as it was: ${messageOf(error)}`);
  }
}

/** Runs a state command against a running plane; answers the line to print. */
export async function runStateCommand(command: StateCommand): Promise<string> {
  if (command.kind === "reset") {
    await call(`${command.url}/_local/reset`, { method: "POST" });
    return `reset the plane at ${command.url}`;
  }
  if (command.kind === "save") {
    const text = await call(`${command.url}/_local/state`);
    checkSaved(command.url, text);
    writeWhole(command.file, text);
    return `saved the plane at ${command.url} to ${command.file} (${text.length} bytes)`;
  }
  let body: string;
  try {
    body = readFileSync(command.file, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${command.file}: ${messageOf(error)}`);
  }
  await call(`${command.url}/_local/state`, { method: "PUT", body, headers: { "Content-Type": "application/json" } });
  return `loaded ${command.file} into the plane at ${command.url}`;
}
