import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  fixPlansResponseSchema,
  okSchema,
  setPlanRequestSchema,
  setProgressRequestSchema,
  userListSchema,
  userParamsSchema,
  userProgressSchema,
  userResponseSchema,
  usersCsvQuerySchema,
  usersQuerySchema,
} from "../../../shared/contracts/admin.ts";
import { signedInUser } from "../../auth/session.ts";
import {
  admitUser,
  changePlan,
  fixMissingPlans,
  getUserProgress,
  listUsers,
  setUserProgress,
} from "./admin-users.service.ts";
import { usersCsvStream } from "./users-csv.ts";

export const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/users",
    { schema: { querystring: usersQuerySchema, response: { 200: userListSchema } } },
    async (request) => listUsers(app.db, request.query),
  );

  app.get("/api/admin/users.csv", { schema: { querystring: usersCsvQuerySchema } }, async (request, reply) => {
    const csv = usersCsvStream(app.db, request.query.tz ?? "UTC");
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="users.csv"')
      .send(csv);
  });

  app.put(
    "/api/admin/users/:id/plan",
    { schema: { params: userParamsSchema, body: setPlanRequestSchema, response: { 200: userResponseSchema } } },
    async (request) => ({
      user: await changePlan(app.db, signedInUser(request), { userId: request.params.id, plan: request.body.plan, now: new Date() }),
    }),
  );

  app.post(
    "/api/admin/users/:id/admit",
    { schema: { params: userParamsSchema, response: { 200: userResponseSchema } } },
    async (request) => ({ user: await admitUser(app.db, signedInUser(request), { userId: request.params.id, now: new Date() }) }),
  );

  app.get(
    "/api/admin/users/:id/progress",
    { schema: { params: userParamsSchema, response: { 200: userProgressSchema } } },
    async (request) => ({ tracks: await getUserProgress(app.db, request.params.id) }),
  );

  app.put(
    "/api/admin/users/:id/progress",
    { schema: { params: userParamsSchema, body: setProgressRequestSchema, response: { 200: okSchema } } },
    async (request) => {
      await setUserProgress(app.db, signedInUser(request), { userId: request.params.id, progress: request.body.progress });
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/users/fix-missing-plans",
    { schema: { response: { 200: fixPlansResponseSchema } } },
    async (request) => ({ fixed: await fixMissingPlans(app.db, signedInUser(request)) }),
  );
};
