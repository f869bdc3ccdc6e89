import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod/mini";
import { hasBearerToken } from "../auth/bearer-token.ts";
import type { Database } from "../db/client.ts";
import { sendError } from "../plugins/errors.ts";
import { operatorCommandSchema, runOperatorCommand, type OperatorServices } from "./commands.ts";

/** A blob a megabyte at a time: sent as it is read, without a second copy of the whole. */
async function* chunksOf(blob: Blob, size = 1 << 20) {
  for (let offset = 0; offset < blob.size; offset += size) {
    yield new Uint8Array(await blob.slice(offset, offset + size).arrayBuffer());
  }
}

/**
 * The CLI's way in while this server holds the embedded database: its commands and backups. The
 * token is checked first, in constant time, before anything else of the request is read; only
 * then is the body parsed and checked, so a caller without the token learns nothing, not even the
 * shape of a command (docs/operations.md).
 */
export function operatorRoutes(
  token: string,
  { db, dumpDataDir }: Pick<Database, "db" | "dumpDataDir">,
  services?: OperatorServices,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook("onRequest", async (request, reply) => {
      if (!hasBearerToken(request.headers.authorization, token)) return sendError(reply, 401, "UNAUTHENTICATED", "Operator token required.");
    });

    // No body schema on the route: Fastify would check it before any handler, and a hook moved
    // later (preHandler) would then answer after it. The handler checks it, behind the token.
    app.post(
      "/api/operator/commands",
      { schema: { response: { 200: z.object({ message: z.string() }) } } },
      async (request, reply) => {
        const command = operatorCommandSchema.safeParse(request.body);
        if (!command.success) {
          return sendError(reply, 400, "VALIDATION", command.error.issues[0]?.message ?? "The command is not valid.");
        }
        return { message: await runOperatorCommand(db, command.data, services) };
      },
    );

    // The embedded database only (PostgreSQL has pg_dump). The archive is taken between two queries
    // (requests wait for it: about a second per 40 MB of data folder) and streamed back; the CLI
    // checks it is whole before writing it (docs/operations.md, Backups).
    if (!dumpDataDir) return;
    app.get("/api/operator/backup", async (_request, reply) => {
      const archive = await dumpDataDir();
      return reply
        .header("content-type", "application/gzip")
        .header("content-length", archive.size)
        .header("cache-control", "no-store")
        .send(Readable.from(chunksOf(archive)));
    });
  };
}
