import { spawn } from "node:child_process";
import * as path from "node:path";
import { toHandler } from "../../provider/engines/terraform/state";
import { resourceType } from "../../provider/engines/terraform/schema";
import { compareWithState, type Kind, kindOf, type StateResource, startAllKindsPlane } from "./all-kinds";
import { EngineFailure, type EngineRun, type MatrixStack, type MatrixStackOptions, type PlannedChange } from "./matrix-stack";
import { repoRoot } from "./paths";
import { openTofuDir, type TofuDir, tofuBin } from "./tofu";
import { PLATFORM_CREDENTIALS_ENV } from "./tofu-plane";
import { packageWorkspace } from "./workspace";

/** One message of OpenTofu's machine-readable output (`-json`), as far as the matrix reads it. */
interface TofuMessage {
  type?: string;
  "@level"?: string;
  "@message"?: string;
  hook?: { resource?: { addr: string; resource_type: string }; action?: string };
  change?: { resource?: { addr: string; resource_type: string; resource_name: string }; action?: string };
  diagnostic?: { severity: string; summary: string; detail?: string; address?: string; snippet?: { context?: string } };
}

/** The messages of a `-json` output, one JSON object a line (other lines ignored). */
function messagesOf(output: string): TofuMessage[] {
  return output.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as TofuMessage];
    } catch {
      return [];
    }
  });
}

/** The kind of a resource address (`clusterform_cmassh_node_pool.pool`). */
const kindOfAddress = (address: string): Kind | undefined => kindOf(address.split(".")[0]);

/**
 * A failed run as the matrix reads it: the error diagnostics (`Error: <summary>`, its detail, the
 * resource it names), then what tofu wrote to stderr; each resource's diagnostics by kind.
 */
function tofuFailure(what: string, output: string, stderr: string): EngineFailure {
  const byKind = new Map<Kind, string>();
  const lines: string[] = [];
  for (const m of messagesOf(output)) {
    const d = m.diagnostic;
    if (m.type !== "diagnostic" || d?.severity !== "error") continue;
    // The resource a diagnostic is about: its address, else the configuration block it points at.
    const block = /^resource "([^"]+)" "([^"]+)"/.exec(d.snippet?.context ?? "");
    const address = d.address ?? (block ? `${block[1]}.${block[2]}` : undefined);
    const text = `Error: ${d.summary}${d.detail ? `\n${d.detail}` : ""}`;
    lines.push(`${text}${address ? `\n  with ${address}` : ""}`);
    const kind = address ? kindOfAddress(address) : undefined;
    if (kind) byKind.set(kind, `${byKind.get(kind) ?? ""}${text}\n`);
  }
  return new EngineFailure(`${what}:\n${lines.join("\n")}\n${stderr}`, byKind);
}

/** Arguments of a run of `command` on the configuration at `round`, machine-readable and without prompts. */
function argsOf(command: "apply" | "destroy" | "plan", round: number): string[] {
  return [command, "-json", "-input=false", ...(command === "plan" ? [] : ["-auto-approve"]), "-var", `round=${round}`];
}

/**
 * Starts `tofu <args>` in the configuration's folder as its own process group, reading its
 * machine-readable output: which resources' operations it began (`apply_start`) and has not seen
 * end (`apply_complete`, `apply_errored`).
 */
function startTofu(dir: TofuDir, args: string[], what: string): EngineRun & { readonly output: () => string } {
  const child = spawn(tofuBin(), args, { cwd: dir.dir, env: dir.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const begun = new Map<string, Kind>();
  let output = "";
  let partial = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk;
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const m of messagesOf(lines.join("\n"))) {
      const addr = m.hook?.resource?.addr;
      if (!addr) continue;
      if (m.type === "apply_start") {
        const kind = kindOfAddress(addr);
        if (kind) begun.set(addr, kind);
      }
      if (m.type === "apply_complete" || m.type === "apply_errored") begun.delete(addr);
    }
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  let running = true;
  const ended = new Promise<EngineFailure | undefined>((resolve) => {
    child.once("close", (code, signal) => {
      running = false;
      resolve(code === 0 ? undefined : tofuFailure(`${what} ended (${code ?? signal})`, output, stderr));
    });
  });
  return { pid: child.pid!, pending: () => new Set(begun.values()), running: () => running, ended, output: () => output };
}

/** The resources of `tofu show -json`, each with its values in the provider's field names. */
async function shownResources(dir: TofuDir): Promise<StateResource[]> {
  const shown = JSON.parse((await dir.ok(["show", "-json", "-no-color"])).stdout);
  const listed = (shown.values?.root_module?.resources ?? []) as { type: string; values: Record<string, never> }[];
  return Promise.all(
    listed.map(async (r) => {
      const found = await resourceType(r.type);
      const outputs = found ? (toHandler({ kind: "object", attributes: found.type.attributes }, r.values) as Record<string, unknown>) : r.values;
      return { type: r.type, id: String(r.values.id ?? ""), outputs };
    }),
  );
}

/**
 * The kinds whose objects a killed apply made and did not record that the next apply cannot adopt,
 * by their address in the configuration: cma-ssh reports no labels, so the provider cannot tell its
 * cluster or pool from someone else's and refuses a create of a name that exists, telling the user
 * to `tofu import` it (docs/opentofu.md, "What differs from Pulumi").
 */
const IMPORTED_AFTER_KILL: Partial<Record<Kind, string>> = {
  "cmassh:Cluster": "clusterform_cmassh_cluster.cluster",
  "cmassh:NodePool": "clusterform_cmassh_node_pool.pool",
};

/**
 * The all-kinds stack on OpenTofu: the configuration test/e2e/programs/all-kinds-hcl in a working
 * directory of its own, the installed package's provider through `dev_overrides`, on a new plane.
 */
export async function openTofuMatrixStack(opts: MatrixStackOptions): Promise<MatrixStack> {
  const workspace = packageWorkspace();
  const plane = await startAllKindsPlane(workspace, opts.timeScale);
  const dir = openTofuDir(`matrix-${process.pid}-${Date.now().toString(36)}`, {
    example: "all-kinds-hcl",
    source: path.join(repoRoot(), "test", "e2e", "programs", "all-kinds-hcl"),
    providerDir: path.join(workspace, "node_modules", "clusterform", "bin"),
    endpoint: plane.url,
  });
  Object.assign(dir.env, PLATFORM_CREDENTIALS_ENV);
  let round = 0;
  const run = async (command: "apply" | "destroy") => {
    const failure = await startTofu(dir, argsOf(command, round), `tofu ${command}`).ended;
    if (failure) throw failure;
  };
  return {
    engine: "tofu",
    plane,
    async configure(values) {
      round = values.round;
    },
    async setCallTimeout(duration) {
      if (duration === undefined) delete dir.env.CLUSTERFORM_CALL_TIMEOUT;
      else dir.env.CLUSTERFORM_CALL_TIMEOUT = duration;
    },
    // OpenTofu goes on with whatever does not depend on a failed resource: `continueOnError` is its only way.
    up: () => run("apply"),
    destroy: () => run("destroy"),
    async planned() {
      const plan = startTofu(dir, argsOf("plan", round), "tofu plan");
      const failure = await plan.ended;
      if (failure) throw failure;
      return messagesOf(plan.output())
        .filter((m) => m.type === "planned_change" && m.change?.resource)
        .map((m): PlannedChange => ({ kind: kindOf(m.change!.resource!.resource_type), op: m.change!.action ?? "", name: m.change!.resource!.resource_name }));
    },
    resources: () => shownResources(dir),
    start: (command) => startTofu(dir, argsOf(command === "up" ? "apply" : "destroy", round), `tofu ${command === "up" ? "apply" : "destroy"}`),
    // The local backend's lock is the killed process's, released with it; the next apply reads the
    // state the killed one last wrote. What the user does: import the cma-ssh objects the killed
    // apply made (the plane holds them, the state does not), which the next apply would refuse.
    async afterKill() {
      const comparison = await compareWithState(plane, { resources: () => shownResources(dir) });
      for (const [kind, address] of Object.entries(IMPORTED_AFTER_KILL) as [Kind, string][]) {
        for (const id of comparison[kind].orphans) await dir.ok(["import", "-input=false", "-no-color", "-var", `round=${round}`, address, id]);
      }
    },
  };
}
