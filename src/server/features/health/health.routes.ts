import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { healthSchema } from "../../../shared/contracts/health.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/health",
    { schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: "ok" as const, database: "ok" as const };
      } catch (error) {
        request.log.error({ err: error }, "health check: database unreachable");
        return reply.code(503).send({ status: "unavailable", database: "unreachable" });
      }
    },
  );
};
