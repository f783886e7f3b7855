import { useState } from "preact/hooks";
import { adminCall } from "./live";
import type { ConsoleState } from "./types";

const CODES = ["UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "INVALID_ARGUMENT", "PERMISSION_DENIED", "NOT_FOUND", "ABORTED"];

function describe(f: ConsoleState["faults"]["faults"][number]): string {
  const scope = [f.api, f.operation, f.target].filter(Boolean).join(" / ") || "every call";
  const chance = f.probability === undefined ? "" : ` with probability ${f.probability}`;
  const left = f.count === undefined ? "until cleared" : `${f.count} more`;
  const extra = f.action === "error" ? ` (${f.code})` : f.delayMs !== undefined ? ` (${f.delayMs} ms${f.jitterMs ? ` + up to ${f.jitterMs}` : ""})` : "";
  return `${f.action}${extra} on ${scope}${chance}, ${left}; fired ${f.fired ?? 0} times`;
}

/** The faults armed, with a way to clear them one by one or all, and a form to arm one. */
export function FaultsPanel({ state }: { state: ConsoleState }) {
  const [error, setError] = useState<string | undefined>();
  const [form, setForm] = useState({ api: "", operation: "", target: "", action: "error", code: "UNAVAILABLE", count: "1", probability: "", delayMs: "200" });
  const set = (key: keyof typeof form) => (e: Event) => setForm({ ...form, [key]: (e.currentTarget as HTMLInputElement).value });
  const arm = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { action: form.action };
    if (form.api) body.api = form.api;
    if (form.operation) body.operation = form.operation;
    if (form.target) body.target = form.target;
    if (form.probability) body.probability = Number(form.probability);
    if (form.count) body.count = Number(form.count);
    if (form.action === "error") body.code = form.code;
    if (form.action === "delay" || form.action === "latency") body.delayMs = Number(form.delayMs);
    setError(await adminCall("POST", "/_local/faults", body));
  };
  const operations = form.api ? (state.operations[form.api] ?? []) : [];
  return (
    <section aria-label="Faults">
      <h3>Faults armed</h3>
      <p>
        Chaos seed <code>{state.faults.seed}</code> (start the plane with <code>--chaos-seed {state.faults.seed}</code> to replay its decisions)
      </p>
      {state.faults.faults.length === 0 ? (
        <p class="empty">No fault is armed.</p>
      ) : (
        <ul class="faults">
          {state.faults.faults.map((f) => (
            <li key={f.id}>
              <span>
                <code>{f.id}</code> {describe(f)}
              </span>
              <button type="button" aria-label={`Clear fault ${f.id}`} onClick={async () => setError(await adminCall("DELETE", `/_local/faults?id=${encodeURIComponent(f.id)}`))}>
                Clear
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={async () => setError(await adminCall("DELETE", "/_local/faults"))} disabled={state.faults.faults.length === 0}>
        Clear all faults
      </button>
      <h3>Arm a fault</h3>
      <form class="arm" onSubmit={arm}>
        <div class="field">
          <label for="fault-platform">Platform</label>
          <select id="fault-platform" value={form.api} onChange={(e) => setForm({ ...form, api: e.currentTarget.value, operation: "" })}>
            <option value="">any</option>
            {Object.keys(state.operations).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="fault-operation">Operation</label>
          <select id="fault-operation" value={form.operation} onChange={set("operation")} disabled={!form.api}>
            <option value="">any</option>
            {operations.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="fault-object">Object</label>
          <input id="fault-object" value={form.target} onInput={set("target")} placeholder="any" />
        </div>
        <div class="field">
          <label for="fault-action">Action</label>
          <select id="fault-action" value={form.action} onChange={set("action")}>
            {state.faultActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        {form.action === "error" && (
          <div class="field">
            <label for="fault-code">Code</label>
            <select id="fault-code" value={form.code} onChange={set("code")}>
              {CODES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        )}
        {(form.action === "delay" || form.action === "latency") && (
          <div class="field">
            <label for="fault-delay-ms">Delay (ms)</label>
            <input id="fault-delay-ms" type="number" min={0} value={form.delayMs} onInput={set("delayMs")} />
          </div>
        )}
        <div class="field">
          <label for="fault-probability">Probability</label>
          <input id="fault-probability" type="number" min={0} max={1} step={0.01} value={form.probability} onInput={set("probability")} placeholder="every call" />
        </div>
        <div class="field">
          <label for="fault-count">Count</label>
          <input id="fault-count" type="number" min={1} value={form.count} onInput={set("count")} placeholder="until cleared" />
        </div>
        <button type="submit">Arm fault</button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
