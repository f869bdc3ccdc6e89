// Input the database cannot store, or the auth bridge cannot pass on, is refused at the edge with
// a 400 instead of failing deep inside with a 500: U+0000 in any string or key (PostgreSQL text
// and jsonb reject it) and JSON nested deeper than any of our forms (re-serialising it for the
// auth library overflows the stack).
import type { FastifyInstance } from "fastify";
import { sendError } from "./errors.ts";

export const MAX_INPUT_DEPTH = 32;
export const NUL_MESSAGE = "Text may not contain NUL characters.";
export const TOO_DEEP_MESSAGE = "The request is nested too deeply.";

/** Why a parsed value is refused, or null. Walked without recursion, so depth cannot overflow the stack. */
export function hostileInput(value: unknown): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === "string") {
      if (next.value.includes("\u0000")) return NUL_MESSAGE;
      continue;
    }
    if (typeof next.value !== "object" || next.value === null) continue;
    if (next.depth >= MAX_INPUT_DEPTH) return TOO_DEEP_MESSAGE;
    for (const [key, child] of Object.entries(next.value)) {
      if (key.includes("\u0000")) return NUL_MESSAGE;
      pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return null;
}

/** Checks the path parameters, the query and a parsed body of every route (a raw webhook body is left to its signature). */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook("preValidation", async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? null : request.body;
    const problem = hostileInput(request.params) ?? hostileInput(request.query) ?? hostileInput(body);
    if (problem) return sendError(reply, 400, "VALIDATION", problem);
  });
}
