import { formatDuration, parseDuration } from "../../core/deadline";
import type { CurrentRequest } from "./server-hooks";

type Props = Record<string, unknown>;
type Operation = "create" | "update" | "delete";

/**
 * The inputs an operation runs with, its time limit combined from two sources: the resource's
 * `timeouts` input and the engine's `customTimeouts` (the request's timeout). When both are set the
 * smaller wins; when only `customTimeouts` is set it replaces the kind's default; when neither is
 * set the kind's default applies (the handler's own). The stored `timeouts` stay the user's.
 */
export function effectiveTimeouts(props: Props, operation: Operation, request: CurrentRequest | undefined): Props {
  const seconds = request?.timeoutSeconds ?? 0;
  if (!(seconds > 0)) return props;
  const engineMs = Math.round(seconds * 1000);
  const own = (props.timeouts ?? {}) as Partial<Record<Operation, string>>;
  const ownValue = own[operation];
  const ownMs = typeof ownValue === "string" ? safeParse(ownValue) : undefined;
  const ms = ownMs === undefined ? engineMs : Math.min(ownMs, engineMs);
  return { ...props, timeouts: { ...own, [operation]: formatDuration(ms) } };
}

function safeParse(text: string): number | undefined {
  try {
    return parseDuration(text);
  } catch {
    return undefined;
  }
}
