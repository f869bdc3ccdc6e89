// Fastify's logger (pino): one JSON line per event in production and tests, for a log collector;
// coloured lines a person reads in development (docs/operations.md, Observability).
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import type { Env } from "../env.ts";

/** Where log lines go: stdout unless a test captures them. */
export type LogDestination = { write(line: string): void };

export async function loggerOptions(env: Env, destination?: LogDestination): Promise<FastifyServerOptions["logger"]> {
  return {
    level: env.logLevel,
    redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
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
