// Announcements by email to learners who opted in, sent at a pace the mail provider accepts
// (docs/product.md, "Announcements"). They are delivered directly, not through the mail outbox:
// each learner's delivery row is already their record (docs/decisions/023-mail-outbox.md).
import type { Feature, FeatureDeps } from "../../feature.ts";
import { createAnnouncementSender } from "./announcements-sender.ts";
import { announcementRoutes } from "./announcements.routes.ts";
import { ANNOUNCEMENT_JOB } from "./announcements.service.ts";

export function announcementsFeature(deps: FeatureDeps): Feature {
  const { db, mailTransport, env } = deps;
  return {
    routes: announcementRoutes(deps),
    jobs: {
      [ANNOUNCEMENT_JOB]: createAnnouncementSender({
        db,
        transport: mailTransport,
        appUrl: env.appUrl,
        secret: env.authSecret,
        mailsPerMinute: env.mail.announcementsPerMinute,
      }),
    },
  };
}
