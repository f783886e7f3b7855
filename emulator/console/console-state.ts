import type { AuditEntry, AuditLog } from "../audit";
import type { FaultRegistry, KnownOperations } from "../faults";

/** The admin views the console shows, by path: every platform's objects with their live status. */
export const CONSOLE_VIEWS: readonly string[] = [
  "/_local/cmassh/clusters",
  "/_local/cyclecloud/clusters",
  "/_local/cyclecloud/nodes",
  "/_local/senlin/clusters",
  "/_local/senlin/nodes",
  "/_local/senlin/profiles",
  "/_local/senlin/policies",
  "/_local/senlin/receivers",
  "/_local/peloton/respools",
  "/_local/peloton/jobs",
  "/_local/vcluster/vclusters",
  "/_local/vcluster/snapshots",
  "/_local/kubernetes/api-servers",
];

/** What the console shows at one moment (the audit log travels apart, entry by entry). */
export interface ConsoleState {
  /** Each view's answer by path; a view this plane lacks (no `--kubernetes`) is absent. */
  views: Record<string, unknown>;
  faults: { faults: unknown[]; seed: number };
  /** The operations each API's faults may name, for the console's form. */
  operations: KnownOperations;
  /** The fault actions the plane knows. */
  faultActions: readonly string[];
  /** The plane's time, ISO 8601 (the console draws progress against it). */
  now: string;
}

/** What the console's state is read from. */
export interface ConsoleSources {
  views: Readonly<Record<string, () => unknown>>;
  faults: FaultRegistry;
  audit: AuditLog;
  operations: KnownOperations;
  faultActions: readonly string[];
  now(): number;
}

/** The console's state now. A view that fails is shown as its error, not as a broken page. */
export function consoleState(sources: ConsoleSources): ConsoleState {
  const views: Record<string, unknown> = {};
  for (const path of CONSOLE_VIEWS) {
    const view = sources.views[path];
    if (!view) continue;
    try {
      views[path] = view();
    } catch (error) {
      views[path] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return {
    views,
    faults: { faults: sources.faults.list(), seed: sources.faults.chaos.seed },
    operations: sources.operations,
    faultActions: sources.faultActions,
    now: new Date(sources.now()).toISOString(),
  };
}

/** How many of the newest audit entries a console receives when it connects. */
export const AUDIT_TAIL = 1000;

/** The newest entries of the audit log, at most {@link AUDIT_TAIL}. */
export function auditTail(audit: AuditLog): AuditEntry[] {
  return audit.tail(AUDIT_TAIL);
}
