import { randomBytes } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { z } from "zod";
import { domainIdOf, type KeystoneConfig, type KeystoneUser, projectIdOf, stableId, userIdOf } from "./identity";
import type { TokenInfo } from "./tokens";

const CODE_BY_STATUS: Readonly<Record<number, Code>> = {
  400: Code.InvalidArgument,
  401: Code.Unauthenticated,
  403: Code.PermissionDenied,
  404: Code.NotFound,
};

/** A Keystone v3 request that failed: the HTTP status and the message of Keystone's error body. */
export class KeystoneError extends ConnectError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    // A ConnectError, so that the call pipeline audits it with a meaningful code.
    super(message, CODE_BY_STATUS[status] ?? Code.Unknown);
  }

  // ConnectError's own check accepts any ConnectError; this one must accept only Keystone's errors.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && Object.prototype.isPrototypeOf.call(KeystoneError.prototype, value);
  }
}

/** Keystone's message for any authentication failure: it never says which part was wrong. */
export const UNAUTHORIZED_MESSAGE = "The request you have made requires authentication.";

const domainRef = z.union([z.object({ id: z.string() }), z.object({ name: z.string() })]);

const authBody = z.object({
  auth: z.object({
    identity: z.object({
      methods: z.array(z.string()).min(1),
      password: z
        .object({
          user: z.object({
            id: z.string().optional(),
            name: z.string().optional(),
            domain: domainRef.optional(),
            password: z.string(),
          }),
        })
        .optional(),
    }),
    scope: z
      .object({
        project: z.object({ id: z.string().optional(), name: z.string().optional(), domain: domainRef.optional() }).optional(),
      })
      .optional(),
  }),
});

type AuthBody = z.infer<typeof authBody>;
type DomainRef = z.infer<typeof domainRef>;

function describeIssue(issue: z.core.$ZodIssue): string {
  return `${issue.path.join(".") || "body"}: ${issue.message}`;
}

function domainMatches(config: KeystoneConfig, ref: DomainRef | undefined): boolean {
  if (!ref) return false;
  return "id" in ref ? ref.id === domainIdOf(config.domain) : ref.name === config.domain;
}

function findUser(config: KeystoneConfig, user: NonNullable<AuthBody["auth"]["identity"]["password"]>["user"]): KeystoneUser | undefined {
  if (user.id !== undefined) return config.users.find((u) => userIdOf(config, u.name) === user.id);
  if (user.name === undefined || !domainMatches(config, user.domain)) return undefined;
  return config.users.find((u) => u.name === user.name);
}

function checkScope(config: KeystoneConfig, user: KeystoneUser, scope: AuthBody["auth"]["scope"]): void {
  const project = scope?.project;
  if (!project) return;
  const byId = project.id !== undefined && project.id === projectIdOf(config, user.project);
  const byName = project.name !== undefined && project.name === user.project && domainMatches(config, project.domain);
  // Keystone answers 401 both for an unknown project and for one the user has no role on.
  if (!byId && !byName) throw new KeystoneError(401, UNAUTHORIZED_MESSAGE);
}

/**
 * Checks a `POST /v3/auth/tokens` body with the password method and answers the identity to issue
 * a token for. An unscoped request is scoped to the user's project: every user here has exactly one.
 * @throws KeystoneError 400 for a malformed body, 401 for wrong credentials or scope.
 */
export function authenticate(config: KeystoneConfig, body: unknown, nowMs: number): TokenInfo {
  const parsed = authBody.safeParse(body);
  if (!parsed.success) throw new KeystoneError(400, `Invalid input for field '${parsed.error.issues.map(describeIssue).join("; ")}'`);
  const { identity, scope } = parsed.data.auth;
  if (!identity.methods.includes("password") || !identity.password) {
    throw new KeystoneError(401, `${UNAUTHORIZED_MESSAGE} Only the password method is supported by this server.`);
  }
  const user = findUser(config, identity.password.user);
  if (!user || user.password !== identity.password.user.password) throw new KeystoneError(401, UNAUTHORIZED_MESSAGE);
  checkScope(config, user, scope);
  return {
    auditId: randomBytes(16).toString("base64url"),
    userId: userIdOf(config, user.name),
    userName: user.name,
    projectId: projectIdOf(config, user.project),
    projectName: user.project,
    domainId: domainIdOf(config.domain),
    domainName: config.domain,
    roles: user.admin ? ["admin", "member", "reader"] : ["member", "reader"],
    issuedMs: nowMs,
    expiresMs: nowMs + config.tokenTtlSeconds * 1000,
  };
}

/** Keystone's timestamp format: ISO 8601 with microseconds. */
function keystoneTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** The catalog: Senlin (`clustering`) and Keystone (`identity`) on this server's address. */
export function catalogOf(config: KeystoneConfig, baseUrl: string): unknown[] {
  const service = (type: string, name: string, url: string) => ({
    type,
    name,
    id: stableId("service", type),
    endpoints: ["public", "internal", "admin"].map((iface) => ({
      id: stableId("endpoint", type, iface),
      interface: iface,
      region: config.region,
      region_id: config.region,
      url,
    })),
  });
  return [service("clustering", "senlin", baseUrl), service("identity", "keystone", `${baseUrl}/v3`)];
}

/** The `token` object of a token response. */
export function renderToken(config: KeystoneConfig, info: TokenInfo, baseUrl: string): Record<string, unknown> {
  const domain = { id: info.domainId, name: info.domainName };
  return {
    methods: ["password"],
    user: { domain, id: info.userId, name: info.userName, password_expires_at: null },
    audit_ids: [info.auditId],
    expires_at: keystoneTime(info.expiresMs),
    issued_at: keystoneTime(info.issuedMs),
    project: { domain, id: info.projectId, name: info.projectName },
    is_domain: false,
    roles: info.roles.map((name) => ({ id: stableId("role", name), name })),
    catalog: catalogOf(config, baseUrl),
  };
}
