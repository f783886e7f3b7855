import type { RestAuth } from "./rest-caller";

/**
 * HTTP Basic authentication (`Authorization: Basic base64(user:password)`) as a {@link RestAuth},
 * for REST platforms without tokens. A 401 cannot be cured by asking again, so nothing is cached.
 */
export function basicAuth(username: string, password: string): RestAuth {
  const encoded = Buffer.from(`${username}:${password}`, "utf8").toString("base64");
  return {
    headers: async () => ({ Authorization: `Basic ${encoded}` }),
    invalidate: () => {},
    secrets: () => [password, encoded].filter((s) => s !== ""),
  };
}
