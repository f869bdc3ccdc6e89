// The quarterly cohorts (docs/subscriptions.md, "Admit from waitlist"): the admin's cohorts and
// "Admit all", and the jobs that admit the waitlist and welcome each learner admitted.
import type { Feature, FeatureDeps } from "../../feature.ts";
import { ADMIT_ALL_JOB, COHORT_WELCOME_JOB, createCohortJobHandlers } from "./cohort-admissions.ts";
import { cohortsAdminRoutes } from "./cohorts-admin.routes.ts";

export function cohortsFeature(deps: FeatureDeps): Feature {
  const { db, mailer, env, sessions } = deps;
  const jobs = createCohortJobHandlers({ db, mailer, appUrl: env.appUrl });
  return {
    routes: sessions.adminOnly(cohortsAdminRoutes(deps)),
    jobs: { [ADMIT_ALL_JOB]: jobs.admitAll, [COHORT_WELCOME_JOB]: jobs.welcome },
  };
}
