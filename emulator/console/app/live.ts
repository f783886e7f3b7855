import { useEffect, useState } from "preact/hooks";
import type { AuditEntry, ConsoleState } from "./types";

/** The most audit entries a page keeps (the newest). */
const KEEP = 5000;

/** What the live stream has told the page. */
export interface Live {
  state?: ConsoleState;
  audit: AuditEntry[];
  connected: boolean;
}

/**
 * Follows `/_local/console/events` (server-sent events): the plane's state whenever it changes
 * and each new audit entry. The browser reconnects by itself when the plane restarts.
 */
export function useLive(): Live {
  const [live, setLive] = useState<Live>({ audit: [], connected: false });
  useEffect(() => {
    const source = new EventSource("/_local/console/events");
    source.addEventListener("open", () => setLive((l) => ({ ...l, connected: true })));
    source.addEventListener("error", () => setLive((l) => ({ ...l, connected: false })));
    source.addEventListener("state", (e) => {
      const state = JSON.parse((e as MessageEvent<string>).data) as ConsoleState;
      setLive((l) => ({ ...l, state, connected: true }));
    });
    source.addEventListener("audit", (e) => {
      const entries = JSON.parse((e as MessageEvent<string>).data) as AuditEntry[];
      setLive((l) => ({ ...l, audit: [...l.audit, ...entries].slice(-KEEP) }));
    });
    source.addEventListener("audit-reset", (e) => {
      const entries = JSON.parse((e as MessageEvent<string>).data) as AuditEntry[];
      setLive((l) => ({ ...l, audit: entries }));
    });
    return () => source.close();
  }, []);
  return live;
}

/** Sends a JSON request to the plane's admin API; answers the error message, or undefined on success. */
export async function adminCall(method: string, path: string, body?: unknown): Promise<string | undefined> {
  const response = await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.ok) return undefined;
  const text = await response.text();
  try {
    return (JSON.parse(text) as { error?: string }).error ?? text;
  } catch {
    return text;
  }
}
