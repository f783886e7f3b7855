import { createHash } from "node:crypto";
import { invalidArgument } from "./validation";

/** The reference server's page size when the request asks for none or more than the maximum. */
export const DEFAULT_PAGE_SIZE = 20;
/** Above this, the page size falls back to {@link DEFAULT_PAGE_SIZE}, as upstream does. */
export const MAX_PAGE_SIZE = 100;

/** The effective page size of a request. */
export function pageSizeOf(requested: number): number {
  return requested <= 0 || requested > MAX_PAGE_SIZE ? DEFAULT_PAGE_SIZE : requested;
}

function fingerprint(filter: unknown): string {
  return createHash("sha256").update(JSON.stringify(filter)).digest("base64url").slice(0, 16);
}

/** An opaque token for the page starting at `offset` of a listing with this filter. */
export function encodePageToken(offset: number, filter: unknown): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint(filter) })).toString("base64url");
}

/**
 * The offset a page token points at; 0 for no token.
 * @throws ConnectError INVALID_ARGUMENT when the token is malformed or was made for other filters.
 */
export function decodePageToken(token: string, filter: unknown): number {
  if (token === "") return 0;
  let parsed: { o?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as typeof parsed;
  } catch {
    throw invalidArgument("page_token", token, "must be a next_page_token from an earlier response");
  }
  if (typeof parsed.o !== "number" || !Number.isInteger(parsed.o) || parsed.o < 0) {
    throw invalidArgument("page_token", token, "must be a next_page_token from an earlier response");
  }
  if (parsed.f !== fingerprint(filter)) {
    throw invalidArgument("page_token", token, "was issued for a listing with other filters; repeat the same filters");
  }
  return parsed.o;
}

/** One page of `items` and the token of the next page (empty on the last). */
export function paginate<T>(items: readonly T[], pageSize: number, pageToken: string, filter: unknown): { page: T[]; next: string } {
  const offset = decodePageToken(pageToken, filter);
  const size = pageSizeOf(pageSize);
  const page = items.slice(offset, offset + size);
  const next = offset + size < items.length ? encodePageToken(offset + size, filter) : "";
  return { page, next };
}
