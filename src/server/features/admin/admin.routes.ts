// The admin console's own routes: the dashboard, users and a learner's record, and the read-only
// records (waitlist, audit log, messages). The console's other tabs are their domains' admin
// routes (catalog's Programs, cohorts', billing's Payments and refunds), each behind the same
// adminOnly guard; the guard test reads every /api/admin route from the router, wherever it is
// registered.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FeatureDeps } from "../../feature.ts";
import type { CatalogCache } from "../catalog/catalog.seam.ts";
import { adminDashboardRoutes } from "./admin-dashboard.routes.ts";
import { adminLearnerRoutes } from "./admin-learner.routes.ts";
import { adminRecordsRoutes } from "./admin-records.routes.ts";
import { adminUsersRoutes } from "./admin-users.routes.ts";

export const adminRoutes = (deps: FeatureDeps & { catalog: CatalogCache }): FastifyPluginAsyncZod =>
  deps.sessions.adminOnly(async (app) => {
    await app.register(adminDashboardRoutes(deps));
    await app.register(adminUsersRoutes(deps));
    await app.register(adminLearnerRoutes(deps));
    await app.register(adminRecordsRoutes(deps));
  });
