import { Code, ConnectError } from "@connectrpc/connect";
import { httpStatusFromCode } from "../grpc-codes";

/** The gRPC code each HTTP status is audited as. */
const CODE_BY_STATUS: Readonly<Record<number, Code>> = {
  400: Code.InvalidArgument,
  401: Code.Unauthenticated,
  403: Code.PermissionDenied,
  404: Code.NotFound,
  406: Code.InvalidArgument,
  409: Code.Aborted,
  500: Code.Internal,
  503: Code.Unavailable,
};

/** The HTTP status of each Senlin exception class, as its FaultWrapper maps them. */
const STATUS_BY_TYPE: Readonly<Record<string, number>> = {
  BadRequest: 400,
  // webob's own, raised by request objects whose field coercion fails (an unknown enum value).
  HTTPBadRequest: 400,
  InvalidSpec: 400,
  MultipleChoices: 400,
  MethodVersionNotFound: 400,
  InvalidAPIVersionString: 400,
  Forbidden: 403,
  ResourceNotFound: 404,
  PolicyBindingNotFound: 404,
  InvalidGlobalAPIVersion: 406,
  ActionConflict: 409,
  ActionImmutable: 409,
  ActionInProgress: 409,
  FeatureNotSupported: 409,
  NodeNotOrphan: 409,
  ResourceInUse: 409,
  ResourceIsLocked: 409,
  InternalError: 500,
};

/** An error Senlin answers with its FaultWrapper body; `type` is the exception class name. */
export class SenlinError extends ConnectError {
  readonly status: number;

  constructor(
    readonly type: keyof typeof STATUS_BY_TYPE,
    message: string,
  ) {
    const status = STATUS_BY_TYPE[type] ?? 500;
    // A ConnectError, so that the call pipeline passes it through and audits a meaningful code.
    super(message, CODE_BY_STATUS[status] ?? Code.Unknown);
    this.status = status;
  }

  // ConnectError's own check accepts any ConnectError; this one must accept only Senlin's errors.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && Object.prototype.isPrototypeOf.call(SenlinError.prototype, value);
  }
}

/** A 400 BadRequest: the engine's refusal (sizes, objects a request names). */
export const badRequest = (message: string): SenlinError => new SenlinError("BadRequest", message);

/**
 * A 400 HTTPBadRequest: webob's, which Senlin's API layer raises for a request of the wrong shape
 * (its request objects and schema checks, the action body checks of a controller) before the
 * engine sees it.
 */
export const httpBadRequest = (message: string): SenlinError => new SenlinError("HTTPBadRequest", message);

/** The 404 of a missing object, with Senlin's message pattern. */
export const notFound = (kind: string, id: string): SenlinError =>
  new SenlinError("ResourceNotFound", `The ${kind} '${id}' could not be found.`);

/** webob's title and explanation per status, which the FaultWrapper copies. */
const WEBOB: Readonly<Record<number, [string, string]>> = {
  400: ["Bad Request", "The server could not comply with the request since it is either malformed or otherwise incorrect."],
  401: ["Unauthorized", "This server could not verify that you are authorized to access the document you requested."],
  403: ["Forbidden", "Access was denied to this resource."],
  404: ["Not Found", "The resource could not be found."],
  405: ["Method Not Allowed", "The method is not allowed for this resource."],
  406: ["Not Acceptable", "The resource could not be generated that was acceptable to your browser."],
  409: ["Conflict", "There was a conflict when trying to complete your request."],
  500: ["Internal Server Error", "The server has either erred or is incapable of performing the requested operation."],
  503: ["Service Unavailable", "The server is currently unavailable. Please try again at a later time."],
};

/** The FaultWrapper body for a status, exception type and message. */
export function faultBody(status: number, type: string, message: string): unknown {
  const [title] = WEBOB[status] ?? ["Error", ""];
  // Senlin's FaultWrapper maps the version error to 406 but builds its body from webob's 400.
  const explanation = (WEBOB[type === "InvalidGlobalAPIVersion" ? 400 : status] ?? ["", ""])[1];
  return { code: status, error: { code: status, message, type }, explanation, title };
}

/** The exception class a fault's code stands for. */
const TYPE_BY_STATUS: Readonly<Record<number, string>> = { 404: "ResourceNotFound", 409: "ActionConflict", 503: "ServiceUnavailable" };

/** Status and FaultWrapper body of any error: Senlin's own, or a ConnectError from an "error" fault. */
export function faultWrapper(error: ConnectError): { status: number; body: unknown } {
  const status = error instanceof SenlinError ? error.status : httpStatusFromCode(error.code);
  const type = error instanceof SenlinError ? error.type : (TYPE_BY_STATUS[status] ?? (status >= 500 ? "InternalError" : "BadRequest"));
  return { status, body: faultBody(status, type, error.rawMessage) };
}

/** The body keystonemiddleware answers a call without a valid token with (not the FaultWrapper). */
export const UNAUTHORIZED_BODY = {
  error: { code: 401, message: "The request you have made requires authentication.", title: "Unauthorized" },
};

/** HTML-escapes text as webob does for an error page's detail. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

/**
 * webob's own error page, which Senlin answers where an error is raised outside its FaultWrapper
 * (a malformed microversion, refused by the version negotiation middleware): HTML, not JSON.
 */
export function webobErrorPage(status: number, detail: string): string {
  const [title, explanation] = WEBOB[status] ?? ["Error", ""];
  return `<html>\n <head>\n  <title>${status} ${title}</title>\n </head>\n <body>\n  <h1>${status} ${title}</h1>\n  ${explanation}<br /><br />\n${escapeHtml(detail)}\n\n\n </body>\n</html>`;
}
