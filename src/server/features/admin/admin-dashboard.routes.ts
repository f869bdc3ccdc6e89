// GET /api/admin/dashboard (docs/admin.md, "Dashboard"): every figure of the console's first tab,
// for the funnel's period. Registered inside adminRoutes, behind its requireAdmin.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { dashboardQuerySchema, dashboardSchema } from "../../../shared/contracts/admin-dashboard.ts";
import { adminDashboard } from "./admin-dashboard.service.ts";

export const adminDashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/dashboard",
    { schema: { querystring: dashboardQuerySchema, response: { 200: dashboardSchema } } },
    async (request) => adminDashboard(app.db, request.query, new Date()),
  );
};
