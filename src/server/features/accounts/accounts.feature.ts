// A learner's own account (docs/accounts.md): settings, sessions, and the mail that confirms a deletion.
import type { Feature, FeatureDeps } from "../../feature.ts";
import { ACCOUNT_DELETED_JOB, createAccountJobHandlers } from "./account-deletion.ts";
import { accountsRoutes } from "./accounts.routes.ts";

export function accountsFeature(deps: FeatureDeps): Feature {
  const { mailer, env } = deps;
  return {
    routes: accountsRoutes(deps),
    jobs: { [ACCOUNT_DELETED_JOB]: createAccountJobHandlers({ mailer, appUrl: env.appUrl }).deleted },
  };
}
