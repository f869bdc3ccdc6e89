// The emails of lesson questions and mentorship, sent by the job queue: a new answer to the asker,
// and the admin's decision on a mentorship request (the time on Accra's clock).
import { eq } from "drizzle-orm";
import { z } from "zod";
import { formatAcademyTime } from "../../../shared/academy-time.ts";
import type { Db } from "../../db/client.ts";
import { lessonAnswers, lessonQuestions, modules, users } from "../../db/schema.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { queueEventSms, SMS_TEXTS } from "../sms/sms.seam.ts";
import { requestWithLearner } from "./mentorship.service.ts";

const answerJobSchema = z.object({ answerId: z.string() });
// `cancelled`: the job of a cancellation for a lost plan; the others tell of the decision the request holds.
const mentorshipJobSchema = z.object({ requestId: z.string(), cancelled: z.boolean().optional() });

/** A few words of a post, to name it in a subject or a sentence. */
function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Where a lesson opens: the track page at that lesson (docs/product.md, "Track page"). */
export function lessonPath(track: string, moduleId: string): string {
  return `/program/${encodeURIComponent(track)}/${encodeURIComponent(moduleId)}`;
}

export function createSupportJobHandlers(deps: { db: Db; mailer: Mailer; appUrl: string }) {
  return {
    async lessonAnswer(payload: unknown) {
      const { answerId } = answerJobSchema.parse(payload);
      const [row] = await deps.db
        .select({ answer: lessonAnswers, question: lessonQuestions, lessonTitle: modules.title, asker: users })
        .from(lessonAnswers)
        .innerJoin(lessonQuestions, eq(lessonQuestions.id, lessonAnswers.questionId))
        .innerJoin(modules, eq(modules.id, lessonQuestions.moduleId))
        .innerJoin(users, eq(users.id, lessonQuestions.userId))
        .where(eq(lessonAnswers.id, answerId));
      // Removed since: nothing to announce.
      if (!row) return;
      const [answerer] = await deps.db
        .select({ name: users.name, plan: users.subscriptionPlan })
        .from(users)
        .where(eq(users.id, row.answer.userId));
      const who = answerer?.plan === "admin" ? "The Academy team" : answerer?.name || "Another learner";
      await deps.mailer.send(
        emailLayout({
          to: row.asker.email,
          name: row.asker.name,
          subject: `New answer to your question on "${excerpt(row.lessonTitle, 60)}"`,
          heading: "Your question has a new answer",
          paragraphs: [
            `${who} answered your question under the lesson "${row.lessonTitle}":`,
            `"${excerpt(row.question.body)}"`,
            excerpt(row.answer.body, 600),
          ],
          action: { label: "Read the answer", url: `${deps.appUrl}${lessonPath(row.question.programId, row.question.moduleId)}` },
        }),
      );
    },

    async mentorship(payload: unknown) {
      const { requestId, cancelled } = mentorshipJobSchema.parse(payload);
      const row = await requestWithLearner(deps.db, requestId);
      if (!row) return;
      const { request, user } = row;
      const action = { label: "See my mentorship requests", url: `${deps.appUrl}/mentorship` };
      if (request.status === "confirmed" && request.scheduledAt) {
        const when = formatAcademyTime(request.scheduledAt);
        await queueEventSms(deps.db, {
          userId: user.id,
          preference: "mentorship",
          kind: "mentorship",
          eventKey: `mentorship:${request.id}:${request.scheduledAt.toISOString()}`,
          content: SMS_TEXTS.mentorship(deps.appUrl, when),
        });
        await deps.mailer.send(
          emailLayout({
            to: user.email,
            name: user.name,
            subject: `Your mentorship session: ${when}`,
            heading: "Your mentorship session is confirmed",
            paragraphs: [
              `Your 1-on-1 session on "${excerpt(request.topic)}" is booked for ${when}.`,
              ...(request.note ? [`A note from the Academy team: ${request.note}`] : []),
            ],
            action,
          }),
        );
      } else if (request.status === "declined") {
        await deps.mailer.send(
          emailLayout({
            to: user.email,
            name: user.name,
            subject: "About your mentorship request",
            heading: "We could not book this session",
            paragraphs: [
              `We are sorry: we could not book your 1-on-1 session on "${excerpt(request.topic)}".`,
              `A note from the Academy team: ${request.note ?? ""}`,
              "You are welcome to send a new request with other times.",
            ],
            action,
          }),
        );
      } else if (request.status === "cancelled" && cancelled) {
        // Cancelled because the plan it needs was lost: the note says why. A confirmation's email
        // still waiting then finds the request cancelled and sends nothing, so this is the one.
        await deps.mailer.send(
          emailLayout({
            to: user.email,
            name: user.name,
            subject: "Your mentorship request was cancelled",
            heading: "Your mentorship request was cancelled",
            paragraphs: [
              `Your 1-on-1 session request on "${excerpt(request.topic)}" was cancelled.`,
              request.note ?? "",
              "With the Advanced plan again, you are welcome to send a new request.",
            ],
            action: { label: "See the Advanced plan", url: `${deps.appUrl}/subscription` },
          }),
        );
      }
    },
  };
}
