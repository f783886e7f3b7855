import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { plannedKindOf } from "../plan/planners";
import { definitionProps } from "./change";

const execFileAsync = promisify(execFile);

type Props = Record<string, unknown>;

/** One Clusterform resource of the stack's last state. */
export interface OldResource {
  urn: string;
  type: string;
  id?: string;
  /** Inputs and outputs, in definition keys. */
  props: Props;
}

/** A resource of `pulumi stack export` (apitype.ResourceV3, the fields read here). */
interface ExportedResource {
  urn?: string;
  type?: string;
  id?: string;
  custom?: boolean;
  delete?: boolean;
  inputs?: Props;
  outputs?: Props;
}

/**
 * The Clusterform resources of an exported deployment (`pulumi stack export`), by URN. Resources
 * pending deletion from an earlier replacement are left out: they are the old halves of replacements.
 */
export function oldResourcesOf(exported: unknown): Map<string, OldResource> {
  const doc = exported as { deployment?: { resources?: ExportedResource[] } };
  const found = new Map<string, OldResource>();
  for (const r of doc?.deployment?.resources ?? []) {
    if (!r.urn || !r.type || r.delete || !r.custom) continue;
    const raw = { ...r.inputs, ...r.outputs };
    if (!plannedKindOf(r.type, raw)) continue;
    found.set(r.urn, { urn: r.urn, type: r.type, id: r.id || undefined, props: definitionProps(r.type, raw) });
  }
  return found;
}

/** Where the pack finds the stack's last state. */
export interface StateSource {
  /** A file holding `pulumi stack export` output: read instead of asking the CLI. */
  stateFile?: string;
  /** The Pulumi CLI to run. @default `pulumi` on PATH */
  pulumi?: string;
  /** The program's folder (where Pulumi.yaml is). */
  programDir?: string;
}

/**
 * The analyzer protocol hands a policy only the new inputs of each resource, never the old state
 * nor the step: the old state comes from the backend, by `pulumi stack export` of the stack the
 * URNs name (read-only, no lock taken), or from a file the user exported beforehand.
 * @throws Error naming the command and its message when the state cannot be read.
 */
export async function loadOldState(urn: string, source: StateSource): Promise<Map<string, OldResource>> {
  if (source.stateFile) return oldResourcesOf(JSON.parse(readFileSync(source.stateFile, "utf8")));
  const [stack, project] = urn.slice("urn:pulumi:".length).split("::");
  const inProgram = source.programDir && existsSync(path.join(source.programDir, "Pulumi.yaml"));
  // Outside the program's folder a diy backend still finds the stack by its full name.
  const name = inProgram ? stack : `organization/${project}/${stack}`;
  const pulumi = source.pulumi ?? "pulumi";
  try {
    const { stdout } = await execFileAsync(pulumi, ["stack", "export", "--stack", name, "--non-interactive"], {
      cwd: inProgram ? source.programDir : undefined,
      maxBuffer: 256 * 1024 * 1024,
    });
    return oldResourcesOf(JSON.parse(stdout));
  } catch (err) {
    const e = err as { stderr?: string; message?: string };
    throw new Error(
      `clusterform policy pack: cannot read the last state of stack ${name} with \`${pulumi} stack export\`: ${(e.stderr || e.message || String(err)).trim()}; ` +
        "set CLUSTERFORM_POLICY_STATE_FILE to a file written by `pulumi stack export`, or CLUSTERFORM_POLICY_PULUMI to the Pulumi CLI",
    );
  }
}
