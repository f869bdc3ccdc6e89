// A mentor's comment on a shared journal entry, told to the learner by the job queue: always by
// email, and by SMS when they chose mentorship messages (docs/trading.md, "The journal").
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { journalComments, journalEntries, users } from "../../db/schema.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { queueEventSms, SMS_TEXTS } from "../sms/sms.seam.ts";

const commentJobSchema = z.object({ commentId: z.string() });

export function createJournalJobHandlers(deps: { db: Db; mailer: Mailer; appUrl: string }) {
  return {
    async comment(payload: unknown) {
      const { commentId } = commentJobSchema.parse(payload);
      const [row] = await deps.db
        .select({ comment: journalComments, entry: journalEntries, learner: users })
        .from(journalComments)
        .innerJoin(journalEntries, eq(journalEntries.id, journalComments.entryId))
        .innerJoin(users, eq(users.id, journalEntries.userId))
        .where(eq(journalComments.id, commentId));
      // The entry or the account is gone since: nothing to tell.
      if (!row) return;
      const { comment, entry, learner } = row;
      const trade = `${entry.direction === "buy" ? "buy" : "sell"} of ${entry.instrument} on ${entry.tradedOn}`;
      await queueEventSms(deps.db, {
        userId: learner.id,
        preference: "mentorship",
        kind: "mentorship",
        eventKey: `journal-comment:${comment.id}`,
        content: SMS_TEXTS.journalComment(deps.appUrl, entry.instrument),
      });
      await deps.mailer.send(
        emailLayout({
          to: learner.email,
          name: learner.name,
          subject: `Your mentor commented on your ${entry.instrument} trade`,
          heading: "A comment on a trade you shared",
          paragraphs: [`Your mentor at the Academy read the ${trade} you shared, and wrote:`, comment.body],
          action: { label: "Open my journal", url: `${deps.appUrl}/journal` },
        }),
      );
    },
  };
}
