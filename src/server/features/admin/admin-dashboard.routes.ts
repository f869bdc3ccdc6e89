// GET /api/admin/dashboard (docs/admin.md, "Dashboard"): every figure of the console's first tab,
// for the funnel's period. Registered inside adminRoutes, behind its adminOnly.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DASHBOARD_ENDPOINTS } from "../../../shared/contracts/admin-dashboard.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { adminDashboard } from "./admin-dashboard.service.ts";

export const adminDashboardRoutes = ({ db }: Pick<FeatureDeps, "db">): FastifyPluginAsyncZod => async (app) => {
  route(app, DASHBOARD_ENDPOINTS.dashboard, {}, async (request) => adminDashboard(db, request.query, new Date()));
};
