// Liveness (the process answers) and readiness (the database answers), for load balancers,
// supervisors and the container's HEALTHCHECK (docs/operations.md).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { healthSchema, livenessSchema } from "../../../shared/contracts/health.ts";
import { unsentMailCounts } from "../../emails/outbox.ts";
import { serviceStatus } from "../../env.ts";
import type { FeatureDeps } from "../../feature.ts";
import { appVersion } from "../../version.ts";

const processFacts = () => ({ version: appVersion, uptimeSeconds: Math.round(process.uptime()) });

export const healthRoutes = ({ db, env, outage }: Pick<FeatureDeps, "db" | "env" | "outage">): FastifyPluginAsyncZod => async (app) => {
  const services = serviceStatus(env);

  app.get("/api/health/live", { schema: { response: { 200: livenessSchema } } }, () => ({
    status: "ok" as const,
    ...processFacts(),
  }));

  app.get(
    "/api/health",
    { schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (request, reply) => {
      try {
        // The one query asks the database and counts the emails the mail server has not taken.
        const { failing } = await unsentMailCounts(db);
        const status = failing > 0 ? ("degraded" as const) : ("ok" as const);
        return { status, database: "ok" as const, mail: { failing }, ...processFacts(), services };
      } catch (error) {
        // An outage is logged once, by the watch (docs/operations.md, "Database outage").
        if (!outage.notice(error)) request.log.error({ err: error }, "health check: database unreachable");
        return reply.code(503).send({ status: "unavailable", database: "unreachable", ...processFacts(), services });
      }
    },
  );
};
