// The cohorts of the Waitlist tab (docs/admin.md, "Cohorts"): list, create, edit, and "Admit all",
// which answers with its run at once and runs as a job; the browser follows the run.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { COHORT_ENDPOINTS } from "../../../shared/contracts/cohorts.ts";
import { signedInUser } from "../../auth/session.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";
import { createCohort, getAdmissionRun, listCohorts, startAdmitAll, updateCohort } from "./cohorts.service.ts";

export const cohortsAdminRoutes = ({ db, jobs }: Pick<FeatureDeps, "db" | "jobs">): FastifyPluginAsyncZod => async (app) => {
  route(app, COHORT_ENDPOINTS.list, {}, async (request) => listCohorts(db, request.query.page));

  route(app, COHORT_ENDPOINTS.create, {}, async (request) => ({ cohort: await createCohort(db, signedInUser(request), request.body) }));

  route(app, COHORT_ENDPOINTS.update, {}, async (request) => ({
    cohort: await updateCohort(db, signedInUser(request), request.params.name, request.body),
  }));

  route(app, COHORT_ENDPOINTS.admitAll, {}, async (request) => {
    const run = await startAdmitAll(db, signedInUser(request), { cohort: request.params.name, track: request.body.track });
    // The job is queued with the run; start it now rather than at the runner's next poll.
    jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, "jobs"));
    return { run };
  });

  route(app, COHORT_ENDPOINTS.admissionRun, {}, async (request) => ({ run: await getAdmissionRun(db, request.params.id) }));
};
