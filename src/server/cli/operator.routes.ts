import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod/mini";
import { sendError } from "../plugins/errors.ts";
import { operatorCommandSchema, runOperatorCommand } from "./commands.ts";
import { tokenMatches } from "./operator-channel.ts";

/** POST /api/operator/commands: the CLI's way in while this server holds the embedded database. */
export function operatorRoutes(token: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/api/operator/commands",
      { schema: { body: operatorCommandSchema, response: { 200: z.object({ message: z.string() }) } } },
      async (request, reply) => {
        const given = request.headers.authorization?.replace(/^Bearer /, "");
        if (!tokenMatches(token, given)) return sendError(reply, 401, "UNAUTHENTICATED", "Operator token required.");
        return { message: await runOperatorCommand(app.db, request.body) };
      },
    );
  };
}
