import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { LEARNER_RECORD_ENDPOINTS } from "../../../shared/contracts/admin-learner.ts";
import type { FeatureDeps } from "../../feature.ts";
import type { CatalogCache } from "../catalog/catalog.seam.ts";
import { route } from "../../plugins/endpoints.ts";
import { readLearner } from "./admin-learner.service.ts";

/** The learner page's one read (docs/admin.md, "Learner page"); its actions are the Users tab's routes. */
export const adminLearnerRoutes = ({ db, catalog }: Pick<FeatureDeps, "db"> & { catalog: CatalogCache }): FastifyPluginAsyncZod => async (app) => {
  route(app, LEARNER_RECORD_ENDPOINTS.learner, {}, async (request) => readLearner(db, await catalog.read(), request.params.id));
};
