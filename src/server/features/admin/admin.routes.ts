// Every /api/admin/* route, behind one guard: the admin plan, decided on the server for each
// request. Sub-plugins inherit the hook, so a route added here cannot forget it. One admin route
// lives with billing, which moves the money (POST /api/admin/payments/:id/refund, in
// billing.routes.ts, behind the same requireAdmin); the guard test reads every /api/admin route
// from the router, wherever it is registered.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAdmin } from "../../auth/session.ts";
import { adminCohortsRoutes } from "./admin-cohorts.routes.ts";
import { adminContentRoutes } from "./admin-content.routes.ts";
import { adminDashboardRoutes } from "./admin-dashboard.routes.ts";
import { adminLearnerRoutes } from "./admin-learner.routes.ts";
import { adminRecordsRoutes } from "./admin-records.routes.ts";
import { adminUsersRoutes } from "./admin-users.routes.ts";

export const ADMIN_PREFIX = "/api/admin";

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", requireAdmin);
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  await app.register(adminDashboardRoutes);
  await app.register(adminContentRoutes);
  await app.register(adminUsersRoutes);
  await app.register(adminLearnerRoutes);
  await app.register(adminRecordsRoutes);
  await app.register(adminCohortsRoutes);
};
