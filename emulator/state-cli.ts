import { readFileSync, renameSync, writeFileSync } from "node:fs";

/** A state command: save the running plane to a file, load one into it, or reset it. */
export type StateCommand = { kind: "save" | "load"; url: string; file: string } | { kind: "reset"; url: string };

async function call(url: string, init?: RequestInit): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error(`no plane answers at ${new URL(url).origin} (${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)})`);
  }
  const text = await response.text();
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

/** Runs a state command against a running plane; answers the line to print. */
export async function runStateCommand(command: StateCommand): Promise<string> {
  if (command.kind === "reset") {
    await call(`${command.url}/_local/reset`, { method: "POST" });
    return `reset the plane at ${command.url}`;
  }
  if (command.kind === "save") {
    const text = await call(`${command.url}/_local/state`);
    // Written whole or not at all: a file half written is worse than none.
    const partial = `${command.file}.partial`;
    writeFileSync(partial, text, { mode: 0o600 });
    renameSync(partial, command.file);
    return `saved the plane at ${command.url} to ${command.file} (${text.length} bytes)`;
  }
  let body: string;
  try {
    body = readFileSync(command.file, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${command.file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await call(`${command.url}/_local/state`, { method: "PUT", body, headers: { "Content-Type": "application/json" } });
  return `loaded ${command.file} into the plane at ${command.url}`;
}
