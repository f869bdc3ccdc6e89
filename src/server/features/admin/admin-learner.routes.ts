import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { learnerParamsSchema, learnerSchema } from "../../../shared/contracts/admin-learner.ts";
import { readLearner } from "./admin-learner.service.ts";

/** The learner page's one read (docs/admin.md, "Learner page"); its actions are the Users tab's routes. */
export const adminLearnerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/users/:id",
    { schema: { params: learnerParamsSchema, response: { 200: learnerSchema } } },
    async (request) => readLearner(app.db, await app.catalog.read(), request.params.id),
  );
};
