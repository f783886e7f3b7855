import { Normalizer } from "./normalize";
import type { Scenario, Step } from "./scenarios";

/** A Senlin server the scenarios run against. */
export interface Target {
  /** `real` or `plane`. */
  name: string;
  /** Senlin's root URL. */
  senlinUrl: string;
  /** A scoped token of its Keystone. */
  token: string;
}

/** What one step observed, normalised: the answer, and for steps that wait, the action and the state it left. */
export interface Observation {
  status: number;
  /** Headers clients rely on (the microversion and its `Vary`, `Location`, the content type, whether a request id came). */
  headers: Record<string, string | boolean>;
  body: unknown;
  /** The action the answer's `Location` names, once it ended (steps with `wait`). */
  action?: unknown;
  /** The statuses that action was seen in while it was polled, repeats collapsed, its end last (steps with `wait: "action"`). */
  lifecycle?: string[];
  /** `GET` of the step's `state` path after the wait. */
  state?: unknown;
}

/** Terminal action statuses. */
const ENDED = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);
/**
 * How long one action may take on either server. The real one's fake Nova servers take seconds, but
 * on a loaded machine its conductor may not answer for a while (its RPC timeout is 180 s): a poll
 * that gets no action keeps polling until this runs out.
 */
const ACTION_TIMEOUT_MS = 300_000;
/**
 * How often an action is polled (and a cluster while the runner waits for it to be idle): often
 * enough to see the statuses that last, not so often that the real server's one API worker falls
 * behind. Which statuses a poll may miss, and so what is compared: lifecycle.ts.
 */
const POLL_MS = 250;

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    if (!(name in vars)) throw new Error(`scenario variable "${name}" is not set (an earlier step should save it)`);
    return vars[name];
  });
}

function fillDeep(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === "string") return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
  return value;
}

function pick(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** Runs HTTP against one target. */
export class ScenarioRun {
  readonly vars: Record<string, string> = {};
  readonly normalizer: Normalizer;

  constructor(readonly target: Target) {
    this.normalizer = new Normalizer(target.senlinUrl);
  }

  async request(step: Step): Promise<{ status: number; headers: Headers; body: unknown }> {
    const url = fill(step.url ?? "", this.vars) || `${this.target.senlinUrl}${fill(step.path ?? "", this.vars)}`;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (step.auth !== false) headers["X-Auth-Token"] = this.target.token;
    if (step.version !== null) headers["OpenStack-API-Version"] = `clustering ${step.version ?? "1.14"}`;
    const init: RequestInit = { method: step.method, headers };
    if (step.body !== undefined) init.body = typeof step.body === "string" ? step.body : JSON.stringify(fillDeep(step.body, this.vars));
    const response = await fetch(url, init);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return { status: response.status, headers: response.headers, body };
  }

  private async get(path: string): Promise<unknown> {
    const response = await fetch(`${this.target.senlinUrl}${fill(path, this.vars)}`, {
      headers: { "X-Auth-Token": this.target.token, "OpenStack-API-Version": "clustering 1.14" },
    });
    return response.json();
  }

  /** Polls an action until it ends: the action then, and every status it was seen in on the way (repeats collapsed). */
  private async waitForAction(id: string): Promise<{ action: unknown; lifecycle: string[] }> {
    const deadline = Date.now() + ACTION_TIMEOUT_MS;
    const lifecycle: string[] = [];
    for (;;) {
      const { action } = (await this.get(`/v1/actions/${id}`)) as { action?: { status: string } };
      if (action && action.status !== lifecycle.at(-1)) lifecycle.push(action.status);
      if (action && ENDED.has(action.status)) return { action, lifecycle };
      if (Date.now() > deadline) throw new Error(`${this.target.name}: action ${id} did not end within ${ACTION_TIMEOUT_MS / 1000} s (${JSON.stringify(action)})`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Waits until nothing runs on a cluster any more (a webhook's action, derived actions). */
  private async waitForIdle(clusterPath: string): Promise<void> {
    const deadline = Date.now() + ACTION_TIMEOUT_MS;
    for (;;) {
      const { cluster } = (await this.get(clusterPath)) as { cluster?: { id: string; status: string } };
      if (!cluster) return;
      const { actions } = (await this.get(`/v1/actions?target=${cluster.id}`)) as { actions: { status: string }[] };
      if (actions.every((a) => ENDED.has(a.status))) return;
      if (Date.now() > deadline) throw new Error(`${this.target.name}: ${clusterPath} still has actions running after ${ACTION_TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Runs one step: the request, then what it saves and waits for. */
  async step(step: Step): Promise<Observation> {
    const { status, headers, body } = await this.request(step);
    for (const [name, path] of Object.entries(step.save ?? {})) {
      const value = path === "location" ? (headers.get("location") ?? "").split("/").pop() : pick(body, path);
      if (typeof value === "string") this.vars[name] = value;
    }
    const raw: Observation = {
      status,
      headers: {
        "openstack-api-version": headers.get("openstack-api-version") ?? "",
        vary: headers.get("vary") ?? "",
        location: headers.get("location") ?? "",
        "content-type": (headers.get("content-type") ?? "").split(";")[0],
        "x-openstack-request-id": headers.has("x-openstack-request-id"),
      },
      body,
    };
    const actionId = (headers.get("location") ?? "").split("/").pop();
    if (step.wait === "action" && actionId && status === 202) Object.assign(raw, await this.waitForAction(actionId));
    if (step.wait === "idle" && step.state) await this.waitForIdle(step.state);
    if (step.state) raw.state = await this.get(step.state);
    // The whole observation numbered at once: the same object is the same placeholder in its answer, action and state.
    this.normalizer.restart();
    return this.normalizer.value(raw) as Observation;
  }

  /** Runs a whole scenario, step after step; answers each step's observation by name. */
  async scenario(scenario: Scenario): Promise<Map<string, Observation>> {
    const seen = new Map<string, Observation>();
    for (const step of scenario.steps) {
      try {
        seen.set(step.name, await this.step(step));
      } catch (error) {
        throw new Error(`${this.target.name}: scenario "${scenario.name}", step "${step.name}": ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return seen;
  }
}
