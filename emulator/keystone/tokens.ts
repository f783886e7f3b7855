import { createHash, randomBytes } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { cachedStatement } from "../database";

/** Keystone's table. Only a hash of each token is kept: the database holds no usable secret. */
export const KEYSTONE_SCHEMA = `
CREATE TABLE IF NOT EXISTS keystone_tokens (
  hash TEXT PRIMARY KEY,
  audit_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  project_id TEXT NOT NULL,
  project_name TEXT NOT NULL,
  domain_id TEXT NOT NULL,
  domain_name TEXT NOT NULL,
  roles TEXT NOT NULL,
  issued_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL,
  revoked INTEGER NOT NULL DEFAULT 0
);
`;

/** What a valid token stands for: the identity every Senlin call acts as. */
export interface TokenInfo {
  auditId: string;
  userId: string;
  userName: string;
  projectId: string;
  projectName: string;
  domainId: string;
  domainName: string;
  /** Role names, e.g. `["admin"]`. */
  roles: string[];
  issuedMs: number;
  expiresMs: number;
}

function hashOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Issues a token for `info` and returns its secret value (the `X-Subject-Token`). */
export function issueToken(db: DatabaseSync, info: TokenInfo): string {
  // Fernet tokens start with "gAAAAA"; clients treat the value as opaque either way.
  const token = `gAAAAA${randomBytes(48).toString("base64url")}`;
  db.prepare(
    `INSERT INTO keystone_tokens (hash, audit_id, user_id, user_name, project_id, project_name, domain_id, domain_name, roles, issued_ms, expires_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    hashOf(token),
    info.auditId,
    info.userId,
    info.userName,
    info.projectId,
    info.projectName,
    info.domainId,
    info.domainName,
    JSON.stringify(info.roles),
    info.issuedMs,
    info.expiresMs,
  );
  return token;
}

/** The identity of a token that exists, is not revoked and has not expired at `nowMs`; else undefined. */
export function validateToken(db: DatabaseSync, token: string | null, nowMs: number): TokenInfo | undefined {
  if (!token) return undefined;
  const row = cachedStatement(db, "SELECT * FROM keystone_tokens WHERE hash = ? AND revoked = 0 AND expires_ms > ?").get(hashOf(token), nowMs);
  if (!row) return undefined;
  return {
    auditId: String(row.audit_id),
    userId: String(row.user_id),
    userName: String(row.user_name),
    projectId: String(row.project_id),
    projectName: String(row.project_name),
    domainId: String(row.domain_id),
    domainName: String(row.domain_name),
    roles: JSON.parse(String(row.roles)) as string[],
    issuedMs: Number(row.issued_ms),
    expiresMs: Number(row.expires_ms),
  };
}

/** Revokes a token; answers whether a valid token was revoked. */
export function revokeToken(db: DatabaseSync, token: string, nowMs: number): boolean {
  const result = db.prepare("UPDATE keystone_tokens SET revoked = 1 WHERE hash = ? AND revoked = 0 AND expires_ms > ?").run(hashOf(token), nowMs);
  return Number(result.changes) > 0;
}
