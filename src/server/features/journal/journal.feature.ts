// The trading journal (docs/trading.md, "The journal"): a learner's own trades and their figures,
// and the comments of their mentor on the trades they share.
import type { Feature, FeatureDeps } from "../../feature.ts";
import { createJournalJobHandlers } from "./journal-emails.ts";
import { journalAdminRoutes, journalRoutes } from "./journal.routes.ts";
import { JOURNAL_COMMENT_JOB } from "./journal.service.ts";

export function journalFeature(deps: FeatureDeps): Feature {
  const emails = createJournalJobHandlers({ db: deps.db, mailer: deps.mailer, appUrl: deps.env.appUrl });
  return {
    routes: async (app) => {
      await app.register(journalRoutes(deps));
      await app.register(deps.sessions.adminOnly(journalAdminRoutes(deps)));
    },
    jobs: { [JOURNAL_COMMENT_JOB]: emails.comment },
  };
}
