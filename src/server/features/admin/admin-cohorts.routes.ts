// The cohorts of the Waitlist tab (docs/admin.md, "Cohorts"): list, create, edit, and "Admit all",
// which answers with its run at once and runs as a job; the browser follows the run.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  admissionRunParamsSchema,
  admissionRunResponseSchema,
  admitAllRequestSchema,
  cohortListSchema,
  cohortParamsSchema,
  cohortResponseSchema,
  cohortsQuerySchema,
  createCohortRequestSchema,
  updateCohortRequestSchema,
} from "../../../shared/contracts/cohorts.ts";
import { signedInUser } from "../../auth/session.ts";
import {
  createCohort,
  getAdmissionRun,
  listCohorts,
  startAdmitAll,
  updateCohort,
} from "../cohorts/cohorts.service.ts";

export const adminCohortsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/cohorts",
    { schema: { querystring: cohortsQuerySchema, response: { 200: cohortListSchema } } },
    async (request) => listCohorts(app.db, request.query.page),
  );

  app.post(
    "/api/admin/cohorts",
    { schema: { body: createCohortRequestSchema, response: { 201: cohortResponseSchema } } },
    async (request, reply) => {
      const cohort = await createCohort(app.db, signedInUser(request), request.body);
      return reply.code(201).send({ cohort });
    },
  );

  app.put(
    "/api/admin/cohorts/:name",
    { schema: { params: cohortParamsSchema, body: updateCohortRequestSchema, response: { 200: cohortResponseSchema } } },
    async (request) => ({ cohort: await updateCohort(app.db, signedInUser(request), request.params.name, request.body) }),
  );

  app.post(
    "/api/admin/cohorts/:name/admit-all",
    { schema: { params: cohortParamsSchema, body: admitAllRequestSchema, response: { 202: admissionRunResponseSchema } } },
    async (request, reply) => {
      const run = await startAdmitAll(app.db, signedInUser(request), { cohort: request.params.name, track: request.body.track });
      // The job is queued with the run; start it now rather than at the runner's next poll.
      app.jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
      return reply.code(202).send({ run });
    },
  );

  app.get(
    "/api/admin/cohort-admissions/:id",
    { schema: { params: admissionRunParamsSchema, response: { 200: admissionRunResponseSchema } } },
    async (request) => ({ run: await getAdmissionRun(app.db, request.params.id) }),
  );
};
