// One error shape for every failure: { error: { code, message } }. 4xx say what was wrong;
// 5xx are logged in full and answered with a plain sentence, never a stack trace.
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

export const GENERIC_ERROR_MESSAGE = "An unexpected error occurred. Please try again.";

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
  return reply.code(status).send({ error: { code, message } });
}

export function registerErrorHandling(app: FastifyInstance) {
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
    request.log.error({ err: error }, "request failed");
    return sendError(reply, 500, "INTERNAL", GENERIC_ERROR_MESSAGE);
  });
}
