// Questions under lessons and 1-on-1 sessions, with the mails that answer them (docs/product.md, "Questions and mentorship").
import type { Feature, FeatureDeps } from "../../feature.ts";
import type { CatalogCache } from "../catalog/catalog.seam.ts";
import { MENTORSHIP_JOB } from "./mentorship.service.ts";
import { LESSON_ANSWER_JOB } from "./questions.service.ts";
import { createSupportJobHandlers } from "./support-emails.ts";
import { supportRoutes } from "./support.routes.ts";

export function supportFeature(deps: FeatureDeps & { catalog: CatalogCache }): Feature {
  const { db, mailer, env } = deps;
  const emails = createSupportJobHandlers({ db, mailer, appUrl: env.appUrl });
  return {
    routes: supportRoutes(deps),
    jobs: { [LESSON_ANSWER_JOB]: emails.lessonAnswer, [MENTORSHIP_JOB]: emails.mentorship },
  };
}
