// Sign-in, sign-up and sessions (docs/accounts.md): the auth library's routes, and the notice
// mailed to the old address when an email changes.
import type { Feature, FeatureDeps } from "../feature.ts";
import { authRoutes } from "./auth.routes.ts";
import { EMAIL_CHANGED_JOB, emailChangedJobHandler } from "./email-change-notice.ts";

export function authFeature(deps: FeatureDeps): Feature {
  const { mailer, env } = deps;
  return {
    routes: authRoutes(deps),
    jobs: { [EMAIL_CHANGED_JOB]: emailChangedJobHandler({ mailer, appUrl: env.appUrl }) },
  };
}
