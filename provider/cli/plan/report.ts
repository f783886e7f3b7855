import type { Disruption, PlannedOperation } from "../../core/plan/operation";
import { planChange } from "./plan-change";
import type { ReadChange } from "./preview-json";

/** One resource's entry in the report. */
export interface ResourceReport {
  urn: string;
  name: string;
  type: string;
  /** The engine's step: create, update, replace, delete. */
  op: string;
  /** The platform calls, in order; empty for a resource of another package (`known` is false). */
  operations: PlannedOperation[];
  /** False for resources that are not Clusterform's: the report knows only the engine's step. */
  known: boolean;
  order?: "delete-first" | "create-first";
  replaces?: string[];
  /** Every disruption of its operations, once each. */
  disruptions: Disruption[];
}

/** The whole report. */
export interface PlanReport {
  resources: ResourceReport[];
  /** Errors the preview reported: the plan is incomplete. */
  errors: string[];
  summary: { changed: number; disruptive: number; operations: number };
}

/** Builds the report of a saved preview's changes. */
export function buildReport(changes: readonly ReadChange[], errors: readonly string[] = []): PlanReport {
  const resources = changes.map((c): ResourceReport => {
    const plan = planChange(c);
    const operations = plan?.operations ?? [];
    const disruptions = [...new Set(operations.flatMap((o) => o.disruptions ?? []))];
    // A step the planner does not know still deletes something when the engine deletes or replaces it.
    if (!plan && (c.op === "delete" || c.op === "replace")) disruptions.push("deletes");
    return { urn: c.address, name: c.name, type: plan?.kind ?? c.type, op: c.op, operations, known: plan !== undefined, order: plan?.order, replaces: plan?.replaces, disruptions };
  });
  const disruptive = resources.filter((r) => isDisruptive(r)).length;
  return { resources, errors: [...errors], summary: { changed: resources.length, disruptive, operations: resources.reduce((n, r) => n + r.operations.length, 0) } };
}

/** Disruptions that gate a CI: everything but values still unknown. */
export function isDisruptive(r: Pick<ResourceReport, "disruptions">): boolean {
  return r.disruptions.some((d) => d !== "unknown-values");
}

/** How each disruption reads in a report. */
const FLAG_TEXT: Record<Disruption, string> = {
  deletes: "DELETES",
  "capacity-removed": "CAPACITY REMOVED",
  restarts: "RESTARTS INSTANCES",
  upgrade: "UPGRADE",
  "unknown-values": "values known only at up",
};

const flags = (d: readonly Disruption[] | undefined): string => (d && d.length > 0 ? ` [${d.map((x) => FLAG_TEXT[x]).join(", ")}]` : "");
const argText = (args: Record<string, unknown>): string =>
  Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");

function heading(r: ResourceReport): string {
  const order = r.order ? ` (${r.order === "delete-first" ? "deletes the old object first" : "creates the new object first"}; forced by ${r.replaces?.join(", ") || "--replace"})` : "";
  return `${r.op} ${r.name} (${r.type})${order}`;
}

/** The report as plain text for a terminal. */
export function renderText(report: PlanReport): string {
  const lines: string[] = [];
  for (const r of report.resources) {
    lines.push(`${isDisruptive(r) ? "!" : " "} ${heading(r)}`);
    if (!r.known) lines.push("      (not a Clusterform resource: no platform plan)");
    else if (r.operations.length === 0) lines.push("      (no platform call: only the stack's state changes)");
    r.operations.forEach((o, i) => {
      lines.push(`    ${i + 1}. ${o.call}${o.target ? ` ${o.target}` : ""}: ${o.summary}${flags(o.disruptions)}`);
      const args = argText(o.args);
      if (args) lines.push(`       ${args}`);
    });
  }
  for (const e of report.errors) lines.push(`error: ${e}`);
  const { changed, disruptive, operations } = report.summary;
  lines.push(changed === 0 ? "No changes." : `${changed} resource(s) change, ${operations} platform call(s), ${disruptive} disruptive.`);
  return `${lines.join("\n")}\n`;
}

/** Text safe in a Markdown table cell: a pipe would end the cell, a `<` could open HTML. */
const md = (s: string): string => s.replace(/\|/g, "\\|").replace(/</g, "&lt;");

/** The report as Markdown for a pull-request comment. */
export function renderMarkdown(report: PlanReport): string {
  const { changed, disruptive, operations } = report.summary;
  const lines = ["### Clusterform plan", ""];
  lines.push(changed === 0 ? "No changes." : `**${changed}** resource(s) change, **${operations}** platform call(s), **${disruptive}** disruptive.`, "");
  for (const e of report.errors) lines.push(`> **Error:** ${md(e)}`, "");
  if (changed === 0) return `${lines.join("\n")}\n`;
  lines.push("| | Resource | Step | Platform calls, in order |", "|---|---|---|---|");
  for (const r of report.resources) {
    const calls = r.known
      ? r.operations.map((o, i) => `${i + 1}. \`${o.call}${o.target ? ` ${o.target}` : ""}\` ${md(o.summary)}${md(flags(o.disruptions))}`).join("<br>") || "none"
      : "not a Clusterform resource";
    const step = r.order ? `${r.op} (${r.order})` : r.op;
    lines.push(`| ${isDisruptive(r) ? "⚠️" : ""} | \`${md(r.name)}\` ${md(r.type)} | ${step} | ${calls} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** The report as JSON for tools. */
export function renderJson(report: PlanReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
