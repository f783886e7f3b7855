import { Code, type ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { decodePageToken, encodePageToken, paginate, pageSizeOf } from "./page-token";

describe("page tokens", () => {
  it.each([
    [0, 20],
    [-5, 20],
    [1, 1],
    [100, 100],
    [101, 20],
  ])("page size %d -> %d (the reference server's rule)", (requested, expected) => {
    expect(pageSizeOf(requested)).toBe(expected);
  });

  it("walks a listing page by page and ends with an empty token", () => {
    const items = [1, 2, 3, 4, 5];
    const first = paginate(items, 2, "", { q: 1 });
    const second = paginate(items, 2, first.next, { q: 1 });
    const third = paginate(items, 2, second.next, { q: 1 });
    expect([first.page, second.page, third.page, third.next]).toEqual([[1, 2], [3, 4], [5], ""]);
  });

  it.each([
    ["garbage", { q: 1 }, "must be a next_page_token from an earlier response"],
    [encodePageToken(2, { q: 1 }), { q: 2 }, "was issued for a listing with other filters"],
  ])("rejects token %j with INVALID_ARGUMENT", (token, filter, message) => {
    let caught: unknown;
    try {
      decodePageToken(token, filter);
    } catch (error) {
      caught = error;
    }
    expect((caught as ConnectError).code).toBe(Code.InvalidArgument);
    expect((caught as ConnectError).rawMessage).toContain(message);
  });
});
