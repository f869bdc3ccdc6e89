// Fastify's logger (pino): one JSON line per event in production and tests, for a log collector;
// coloured lines a person reads in development (docs/operations.md, Observability). Nothing secret
// is written: addresses lose their query values and their token segments, errors their SQL
// parameters, headers and cookies (docs/operations.md, "What the logs never hold").
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import type { Env } from "../env.ts";

/** Where log lines go: stdout unless a test captures them. */
export type LogDestination = { write(line: string): void };

export const REDACTED = "[redacted]";

/**
 * The query parameters whose values are logged: known to be harmless (pages, days, a time zone).
 * Every other value is replaced, so a new parameter (a token, a code, an address) is never
 * logged until someone adds it here: an allow-list, not a list of names to guess.
 */
const LOGGED_QUERY_PARAMETERS = new Set(["page", "from", "to", "tz"]);

/** Paths whose remainder is a credential (the auth library's reset link carries its token there). */
const CREDENTIAL_PATH_PREFIXES = ["/api/auth/reset-password/"];

/** An address as it is logged: the path (credential segments replaced) and the query's names. */
export function loggedUrl(url: string): string {
  const queryAt = url.indexOf("?");
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const prefix = CREDENTIAL_PATH_PREFIXES.find((candidate) => rawPath.startsWith(candidate) && rawPath.length > candidate.length);
  const path = prefix ? `${prefix}${REDACTED}` : rawPath;
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const equalsAt = pair.indexOf("=");
      const name = equalsAt === -1 ? pair : pair.slice(0, equalsAt);
      if (equalsAt === -1) return name;
      return LOGGED_QUERY_PARAMETERS.has(name) ? pair : `${name}=${REDACTED}`;
    });
  return `${path}?${query.join("&")}`;
}

/** Fields of an error (or its causes) that may carry a credential or a person's data. */
const UNLOGGED_ERROR_FIELDS = new Set(["params", "parameters", "values", "detail", "headers", "cookie", "cookies", "authorization", "password", "token", "secret"]);

/** A failed query's message says "params: ..." after the SQL (drizzle): those values are cut. */
function withoutParameters(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, `\nparams: ${REDACTED}`);
}

function scrubbed(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return withoutParameters(value);
  if (value === null || typeof value !== "object" || depth > 5) return value;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, UNLOGGED_ERROR_FIELDS.has(key.toLowerCase()) ? REDACTED : scrubbed(field, depth + 1)]),
  );
}

/** An error as pino writes it (type, message, stack, its own fields, its cause). */
function plainError(error: Error, depth = 0): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...error };
  const cause: unknown = error.cause;
  if (cause !== undefined) fields.cause = cause instanceof Error && depth < 5 ? plainError(cause, depth + 1) : cause;
  const { message, stack } = error;
  if (!isDataException(error)) return { type: error.constructor.name, ...fields, message, stack };
  return { type: error.constructor.name, ...fields, message: withoutQuotedValues(message), stack: stack && withoutQuotedValues(stack) };
}

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22: a bad number, date or text) quote the value
 * they refused, which is a query parameter: `invalid input syntax for type integer: "..."`.
 */
function isDataException(error: Error): boolean {
  return "code" in error && typeof error.code === "string" && error.code.startsWith("22");
}

function withoutQuotedValues(text: string): string {
  return text.replace(/"[^"\n]*"/g, `"${REDACTED}"`);
}

/**
 * The auth library's "Invalid callbackURL: ...", "Invalid origin: ..." lines end with what the
 * caller sent, which may be anything (a token pasted into the address): that end is not logged.
 */
export function loggedAuthMessage(message: string): string {
  return withoutParameters(message).replace(/^(Invalid [^:]{1,40}): [\s\S]*$/, `$1: ${REDACTED}`);
}

type SerializedError = { [key: string]: unknown; type: string; message: string; stack: string };

/** Every `err` in a log line: without SQL parameters, headers or cookies, causes included. */
export function loggedError(error: Error): SerializedError;
export function loggedError(error: unknown): unknown;
export function loggedError(error: unknown): unknown {
  return scrubbed(error instanceof Error ? plainError(error) : error);
}

type LoggedRequest = { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } };

/** Fastify's request serializer, with the address as loggedUrl writes it. */
function loggedRequest(request: LoggedRequest) {
  return { method: request.method, url: loggedUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

export async function loggerOptions(env: Env, destination?: LogDestination): Promise<FastifyServerOptions["logger"]> {
  return {
    level: env.logLevel,
    redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
    serializers: { req: loggedRequest, err: loggedError },
    stream: destination ?? (env.nodeEnv === "development" ? await prettyStdout() : undefined),
  };
}

/** Loaded in development only, so production never loads the formatter. */
async function prettyStdout(): Promise<LogDestination> {
  const { default: pretty } = await import("pino-pretty");
  // Synchronous: the last lines before a stop (SIGTERM, a failed start) are not lost.
  return pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
}

/**
 * One line per request, written when it is answered: its id, method, address, status and time
 * (Fastify's default writes a second line at info when the request arrives, half the logging cost
 * of a request; docs/performance.md, "Where the time goes"). That arrival line is written at debug.
 * Fastify's other lines are kept.
 */
export class OneLinePerRequest extends LogController {
  /** At debug only: at the usual levels it costs a level check (docs/operations.md, "Logs"). */
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
