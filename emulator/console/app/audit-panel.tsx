import { useState } from "preact/hooks";
import type { AuditEntry } from "./types";

/** Entries shown at once, newest first; filters narrow them. */
const SHOWN = 500;

/** The audit log as a timeline, newest first, filtered by platform, operation and object. */
export function AuditPanel({ audit }: { audit: AuditEntry[] }) {
  const [api, setApi] = useState("");
  const [operation, setOperation] = useState("");
  const [object, setObject] = useState("");
  const apis = [...new Set(audit.map((e) => e.api))].sort();
  const operations = [...new Set(audit.filter((e) => api === "" || e.api === api).map((e) => e.operation))].sort();
  const matching = audit.filter((e) => (api === "" || e.api === api) && (operation === "" || e.operation === operation) && (object === "" || e.target.includes(object)));
  const shown = matching.slice(-SHOWN).reverse();
  return (
    <section aria-label="Audit log">
      <h3>Audit log</h3>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="audit-platform">Platform</label>
          <select id="audit-platform" value={api} onChange={(e) => { setApi(e.currentTarget.value); setOperation(""); }}>
            <option value="">all</option>
            {apis.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="audit-operation">Operation</label>
          <select id="audit-operation" value={operation} onChange={(e) => setOperation(e.currentTarget.value)}>
            <option value="">all</option>
            {operations.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="audit-object">Object</label>
          <input id="audit-object" type="search" value={object} placeholder="cluster, pool, id…" onInput={(e) => setObject(e.currentTarget.value)} />
        </div>
        <output aria-live="polite">
          {matching.length} of {audit.length} calls
        </output>
      </form>
      <ol class="timeline" aria-label="calls, newest first">
        {shown.map((e) => (
          <li key={e.seq} class={e.code === "OK" ? "ok" : "failed"}>
            <time dateTime={e.time}>{e.time.replace("T", " ").replace("Z", "")}</time>
            <span class="api">{e.api}</span>
            <span class="operation">{e.operation}</span>
            <span class="target">{e.target}</span>
            <span class="code">{e.code}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
