// One error shape for every failure: { error: { code, message, requestId } }. 4xx say what was
// wrong; 5xx are logged in full and answered with a plain sentence, never a stack trace. The
// request id lets a learner's report be found in the logs (docs/operations.md, Observability).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { RETRY_AFTER_SECONDS, type OutageWatch } from "../db/outage.ts";
import type { SetAnswerHeaders } from "./request-id.ts";

export const GENERIC_ERROR_MESSAGE = "An unexpected error occurred. Please try again.";

export const UNAVAILABLE_MESSAGE = "The academy is briefly unavailable. Please try again in a moment.";

const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type: send JSON.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty.",
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON.",
  FST_ERR_RATE_LIMIT_EXCEEDED: "Too many requests. Please try again later.",
};

/** An error a route throws on purpose: answered with its status, code and message as they are. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ error: { code, message, requestId: reply.request.id } });
}

/** The 404 of an address no route answers; the query string (it may hold a token) is left out. */
export function sendNoRoute(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const pathname = request.url.split("?")[0] ?? "/";
  return sendError(reply, 404, "NOT_FOUND", `No route for ${request.method} ${pathname}.`);
}

/**
 * Fastify's `frameworkErrors`: a path it cannot decode (`/api/programs/%E0`) or too long a path
 * parameter is answered before any route or hook runs; without this it gets Fastify's own body,
 * no request id and none of the security headers.
 */
export function frameworkErrorAnswer(setAnswerHeaders: SetAnswerHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    setAnswerHeaders(request, reply);
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, "request failed");
    void (status < 500
      ? sendError(reply, status, error.code, status === 414 ? "The address is too long." : "The address is not valid.")
      : sendError(reply, 500, "INTERNAL", GENERIC_ERROR_MESSAGE));
  };
}

/** The database unreachable: come back in a few seconds (docs/operations.md, "Database outage"). */
export function sendUnavailable(reply: FastifyReply): FastifyReply {
  reply.header("retry-after", String(RETRY_AFTER_SECONDS));
  return sendError(reply, 503, "UNAVAILABLE", UNAVAILABLE_MESSAGE);
}

export function registerErrorHandling(app: FastifyInstance, outage: OutageWatch) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error.status, error.code, error.message);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      return sendError(reply, 400, "VALIDATION", first?.message ?? "The request is not valid.");
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // @fastify/rate-limit throws a plain Error with statusCode 429 and no code.
      const code = error.code ?? (status === 429 ? "FST_ERR_RATE_LIMIT_EXCEEDED" : "BAD_REQUEST");
      const message =
        CLIENT_ERROR_MESSAGES[code] ??
        (error instanceof SyntaxError ? CLIENT_ERROR_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY : null) ??
        error.message;
      return sendError(reply, status, code, message ?? "Bad request.");
    }
    // Logged once per outage by the watch, not once per request.
    if (outage.refuse(error)) return sendUnavailable(reply);
    request.log.error({ err: error }, "request failed");
    return sendError(reply, 500, "INTERNAL", GENERIC_ERROR_MESSAGE);
  });
}

/**
 * While the server stops (docs/operations.md, Starting and stopping), the requests in flight are
 * answered; a new one arriving on a kept-alive connection is told to come back, in the one error
 * shape with its id (Fastify's own 503 has neither), and its connection is closed.
 */
export function registerClosingAnswer(app: FastifyInstance) {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onRequest", (request, reply, done) => {
    if (!closing) return done();
    reply.header("connection", "close");
    void sendError(reply, 503, "SHUTTING_DOWN", "The server is restarting. Please try again in a moment.");
  });
}
