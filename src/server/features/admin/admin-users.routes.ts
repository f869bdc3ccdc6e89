import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_USERS_ENDPOINTS } from "../../../shared/contracts/admin.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import {
  admitUser,
  changePlan,
  fixMissingPlans,
  getUserProgress,
  listUsers,
  setUserProgress,
} from "./admin-users.service.ts";
import { usersCsvStream } from "./users-csv.ts";

export const adminUsersRoutes = ({ db }: Pick<FeatureDeps, "db">): FastifyPluginAsyncZod => async (app) => {
  route(app, ADMIN_USERS_ENDPOINTS.list, {}, async (request) => listUsers(db, request.query));

  // A download, not one JSON shape: registered here, with the declared path and query.
  app.get(ADMIN_USERS_ENDPOINTS.csv.path, { schema: { querystring: ADMIN_USERS_ENDPOINTS.csv.query } }, async (request, reply) => {
    const csv = usersCsvStream(db, request.query.tz ?? "UTC");
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="users.csv"')
      .send(csv);
  });

  route(app, ADMIN_USERS_ENDPOINTS.setPlan, {}, async (request) => ({
    user: await changePlan(db, signedInUser(request), { userId: request.params.id, plan: request.body.plan, now: new Date() }),
  }));

  route(app, ADMIN_USERS_ENDPOINTS.admit, {}, async (request) => ({
    user: await admitUser(db, signedInUser(request), { userId: request.params.id, now: new Date() }),
  }));

  route(app, ADMIN_USERS_ENDPOINTS.progress, {}, async (request) => ({ tracks: await getUserProgress(db, request.params.id) }));

  route(app, ADMIN_USERS_ENDPOINTS.setProgress, {}, async (request) => {
    await setUserProgress(db, signedInUser(request), { userId: request.params.id, progress: request.body.progress });
    return { ok: true as const };
  });

  route(app, ADMIN_USERS_ENDPOINTS.fixMissingPlans, {}, async (request) => ({ fixed: await fixMissingPlans(db, signedInUser(request)) }));
};
