import { fstatSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineTraits, Holder } from "./engine";
import { ClusterformError } from "./errors";

/*
 * Which state entry holds which platform object, within one run of an engine: the rule that keeps
 * an object another resource of the stack holds from being deleted, whatever adopted it and
 * whatever deletes it, in whichever provider process.
 *
 * Objects have deterministic identities (derived names, ids, ownership markers) so that a create
 * interrupted by a killed run is found and adopted by the next run instead of duplicated. The same
 * identity is then found by every create that derives it: the condemned half of `pulumi up
 * --replace`, a resource whose type token changed (the dynamic class moved to the native one without
 * an alias, served by another provider process), an OpenTofu resource moved to another address
 * without a `moved` block, two resources that derive one name. The engine then deletes the entry it
 * no longer wants, and that entry names the very object the new entry adopted.
 *
 * So every create, adoption and live Diff is recorded here, and:
 * - a delete of an object another entry holds in this run (adopted, made, or diffed live by an
 *   engine that deletes only after diffing everything) does not run: the object is kept, with a
 *   warning, and the engine forgets only the deleting entry;
 * - a delete of an object its own entry adopted or diffed live in this run is the leftover copy of
 *   that entry (a create-first replacement that adopted it, or such a run killed before its delete)
 *   and does not run either;
 * - an adoption of an object another entry holds in this run fails before anything is written.
 *
 * Records live as long as the run: in memory for an engine with one provider process per run, and
 * in a file shared by every provider process of one engine process otherwise (Pulumi serves a
 * stack's dynamic resources and its native ones from two processes).
 */

/** How an entry came to hold an object in this run. */
export type HoldHow = "made" | "adopted" | "live";

/** One object held by one entry. */
export interface HoldRecord {
  /** The kind's type, e.g. `cmassh:Cluster`. */
  readonly kind: string;
  /** The object's id, as the state records it. */
  readonly id: string;
  readonly holder: string;
  readonly label: string;
  readonly how: HoldHow;
}

/** Where the records of one run are kept. */
export interface HoldStore {
  /** The record of an object, if any entry holds it in this run. */
  find(kind: string, id: string): HoldRecord | undefined;
  put(record: HoldRecord): void;
  /** Forgets an object (its delete ran). */
  drop(kind: string, id: string): void;
  /** Forgets what an entry held live (the engine is about to create that entry anew). */
  dropLive(holder: string): void;
}

type Event = { op: "put"; record: HoldRecord } | { op: "drop"; kind: string; id: string } | { op: "dropLive"; holder: string };

const keyOf = (kind: string, id: string) => `${kind}\u0000${id}`;

/** Applies one event to the records. */
function apply(records: Map<string, HoldRecord>, event: Event): void {
  if (event.op === "put") records.set(keyOf(event.record.kind, event.record.id), event.record);
  else if (event.op === "drop") records.delete(keyOf(event.kind, event.id));
  else for (const [k, r] of records) if (r.holder === event.holder && r.how === "live") records.delete(k);
}

/** The records of a run served by this process alone. */
export function memoryHoldStore(): HoldStore {
  const records = new Map<string, HoldRecord>();
  return {
    find: (kind, id) => records.get(keyOf(kind, id)),
    put: (record) => apply(records, { op: "put", record }),
    drop: (kind, id) => apply(records, { op: "drop", kind, id }),
    dropLive: (holder) => apply(records, { op: "dropLive", holder }),
  };
}

/**
 * The records of a run shared by several processes: an append-only file of events, one JSON line
 * each (appends of a short line are atomic), read up to its end before every lookup.
 */
export function fileHoldStore(file: string): HoldStore {
  const records = new Map<string, HoldRecord>();
  const fd = openSync(file, "a+");
  let offset = 0;
  let partial = "";
  const catchUp = () => {
    const size = fstatSync(fd).size;
    if (size <= offset) return;
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    offset = size;
    const lines = (partial + buffer.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") apply(records, JSON.parse(line) as Event);
  };
  const append = (event: Event) => {
    writeSync(fd, `${JSON.stringify(event)}\n`);
    catchUp();
  };
  return {
    find: (kind, id) => {
      catchUp();
      return records.get(keyOf(kind, id));
    },
    put: (record) => append({ op: "put", record }),
    drop: (kind, id) => append({ op: "drop", kind, id }),
    dropLive: (holder) => append({ op: "dropLive", holder }),
  };
}

const RUN_FILE = /^clusterform-run-(\d+)-(\d+)\.jsonl$/;

/** `pid (comm) state ppid ... starttime`: the command, parent and start time of a Linux process. */
function processInfo(pid: number): { comm: string; ppid: number; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    return { comm, ppid: Number(fields[1]), start: fields[19] };
  } catch {
    return undefined;
  }
}

/**
 * The file of the engine run this process serves: named after the nearest ancestor process whose
 * command is `engine` (e.g. `pulumi`) and its start time, so that every provider process one engine
 * process starts finds the same file and a reused process id never does. Undefined where processes
 * cannot be read (not Linux) or no such ancestor exists (in-process tests): the run is then this
 * process alone. Files of runs whose engine has ended are removed.
 */
export function runFileOf(engine: string, dir = os.tmpdir(), from = process.ppid): string | undefined {
  let pid = from;
  for (let depth = 0; depth < 6 && pid > 1; depth++) {
    const info = processInfo(pid);
    if (!info) return undefined;
    if (info.comm === engine) {
      removeEndedRuns(dir);
      return path.join(dir, `clusterform-run-${pid}-${info.start}.jsonl`);
    }
    pid = info.ppid;
  }
  return undefined;
}

function removeEndedRuns(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = RUN_FILE.exec(name);
    if (!match) continue;
    const info = processInfo(Number(match[1]));
    if (info && info.start === match[2]) continue;
    rmSync(path.join(dir, name), { force: true });
  }
}

/** The store of this process's run: shared through the run's file when the engine runs several provider processes. */
export function holdStoreFor(engine: EngineTraits, processName: string): HoldStore {
  const file = process.env.CLUSTERFORM_RUN_FILE || (engine.sharedRun ? runFileOf(processName) : undefined);
  if (!file) return memoryHoldStore();
  try {
    return fileHoldStore(file);
  } catch {
    // A run file that cannot be opened (read-only temp) leaves this process its own records.
    return memoryHoldStore();
  }
}

const q = (s: string) => JSON.stringify(s);

/** The rules over a run's records (see the comment at the top of this file). */
export class Holds {
  constructor(
    private readonly engine: EngineTraits,
    private readonly store: HoldStore,
  ) {}

  /** A Check without old inputs: the engine will create this entry, so what it held live is no longer kept. */
  checkedAsNew(holder: Holder): void {
    this.store.dropLive(holder.key);
  }

  /**
   * A Diff of entry `holder`, whose object is `id`: kept live unless the Diff replaces it.
   * @returns a warning when another entry of this run holds the same object: then neither entry's
   * delete runs in this run (each would delete the other's object), and the user must say which
   * entry goes.
   */
  diffed(holder: Holder, kind: string, id: string, replaced: boolean): string | undefined {
    const found = this.store.find(kind, id);
    if (replaced) {
      if (found?.holder === holder.key && found.how === "live") this.store.drop(kind, id);
      return undefined;
    }
    if (!this.engine.deletesAfterDiffs) return undefined;
    if (found && found.holder !== holder.key) return heldTwice(kind, id, holder, found);
    this.store.put({ kind, id, holder: holder.key, label: holder.label, how: "live" });
    return undefined;
  }

  /**
   * Before a create adopts the object `id` it found: refuses when another entry holds it in this run.
   * @param operation - what the create was doing, e.g. `CreateCluster cluster "prod-1a2b3c4"`.
   * @throws ClusterformError AlreadyExists naming the holder; nothing has been written.
   */
  beforeAdopting(holder: Holder, kind: string, id: string, operation: string): void {
    const found = this.store.find(kind, id);
    if (!found || found.holder === holder.key) return;
    throw new ClusterformError({
      code: "AlreadyExists",
      platformCode: "HELD",
      operation,
      platformMessage:
        `${kind} ${q(id)} is held by another resource of this run, ${found.label}, which ${howWords(found.how)} it; ` +
        "nothing was changed. Two resources derive the same platform name or id: give one of them its own `name` (or another " +
        "resource name), or, if this resource is meant to take the object over, remove the other from the state first",
    });
  }

  /**
   * A create answered object `id`: made by it, or adopted (found and taken over).
   * @throws ClusterformError when another entry already holds that object in this run: two creates
   * of one derived name raced in two processes, and this one's answer is another entry's object.
   */
  created(holder: Holder, kind: string, id: string, adopted: boolean): void {
    const found = this.store.find(kind, id);
    if (found && found.holder !== holder.key && found.how !== "live") {
      throw new ClusterformError({
        code: "AlreadyExists",
        platformCode: "HELD",
        operation: `recording ${kind} ${q(id)} for ${holder.label}`,
        platformMessage:
          `${found.label} ${howWords(found.how)} that object in this run; two resources derive the same platform name or id. ` +
          "This resource was not recorded; give one of them its own `name` (or another resource name)",
      });
    }
    this.store.put({ kind, id, holder: holder.key, label: holder.label, how: adopted ? "adopted" : "made" });
  }

  /** Why the delete of object `id` by entry `holder` must not run, or undefined when it must. */
  reasonToKeep(holder: Holder, kind: string, id: string): string | undefined {
    const found = this.store.find(kind, id);
    if (!found) return undefined;
    const advice = `to recreate it, ${this.engine.recreateAdvice}`;
    if (found.holder !== holder.key) {
      return (
        `kept ${q(id)} (${kind}): ${found.label} holds it (it ${howWords(found.how)} it in this run), so deleting it for ` +
        `${holder.label} would delete what that resource holds; only ${holder.label} is dropped from the state`
      );
    }
    if (found.how === "made") return undefined;
    return found.how === "adopted"
      ? `kept ${q(id)} (${kind}): this run's replacement created first under the same identity and adopted that very object, ` +
          `so deleting the old state's copy would delete what the state now names; ${advice}`
      : `kept ${q(id)} (${kind}): the state names it as this resource's live object (an earlier replacement adopted it and was ` +
          `interrupted before it dropped the old state's copy), so only that copy is dropped; ${advice}`;
  }

  /** The delete of object `id` ran: nothing holds it any more. */
  deleted(kind: string, id: string): void {
    if (this.store.find(kind, id)) this.store.drop(kind, id);
  }
}

function howWords(how: HoldHow): string {
  return how === "made" ? "created" : how === "adopted" ? "adopted" : "found live and unchanged in its diff of";
}

function heldTwice(kind: string, id: string, holder: Holder, other: HoldRecord): string {
  return (
    `${kind} ${q(id)} is held by two resources of this stack: ${other.label} and ${holder.label}; neither is deleted in this run, ` +
    "since a delete of either would delete the other's object. Remove one of them from the state without deleting the object " +
    "(Pulumi: `pulumi state delete <urn>`; OpenTofu: `tofu state rm <address>`)"
  );
}
