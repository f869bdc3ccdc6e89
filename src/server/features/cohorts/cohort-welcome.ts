// The welcome email of a learner admitted with their cohort (docs/admin.md, "Cohorts"), sent by
// the job queue: the cohort, the track and its start day on the academy's calendar, and a link
// to the program.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { cohortStartInstant, formatAcademyDay, formatCohortStart } from "../../../shared/contracts/cohorts.ts";
import { PAID_PLANS, PLAN_LABELS } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { cohorts, users } from "../../db/schema.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { queueEventSms, SMS_TEXTS } from "../sms/sms.seam.ts";

export const COHORT_WELCOME_JOB = "cohort.welcome";

export const welcomeJobSchema = z.object({
  userId: z.string(),
  cohort: z.string(),
  track: z.enum(PAID_PLANS),
  // The month the admission gave (docs/subscriptions.md, "Admit from waitlist"); absent in jobs
  // queued before it was named.
  month: z.object({ start: z.iso.datetime(), end: z.iso.datetime() }).optional(),
});
export type WelcomeJob = z.infer<typeof welcomeJobSchema>;

/**
 * Queues the welcome email of a learner admitted from the waitlist, in the admission's transaction:
 * every admission welcomes its learner once, whether an administrator admitted them alone or with
 * Admit all (docs/admin.md, "Cohorts").
 */
export async function queueCohortWelcome(
  tx: Tx,
  welcome: Omit<WelcomeJob, "month"> & { month: { start: Date; end: Date } | null },
): Promise<void> {
  const month = welcome.month && { start: welcome.month.start.toISOString(), end: welcome.month.end.toISOString() };
  await enqueueJob(tx, COHORT_WELCOME_JOB, { ...welcome, month: month ?? undefined });
}

export function createWelcomeJobHandler(deps: { db: Db; mailer: Mailer; appUrl: string }) {
  return async (payload: unknown) => {
    const job = welcomeJobSchema.parse(payload);
    const [row] = await deps.db
      .select({ email: users.email, name: users.name, startsOn: cohorts.startsOn })
      .from(users)
      .innerJoin(cohorts, eq(cohorts.name, job.cohort))
      .where(eq(users.id, job.userId));
    // The account was closed before the email went: nobody to welcome.
    if (!row) return;
    const track = PLAN_LABELS[job.track];
    // The start as it stands when the email goes: an administrator may have moved it since.
    const start = formatCohortStart(row.startsOn);
    await queueEventSms(deps.db, {
      userId: job.userId,
      preference: "cohorts",
      kind: "cohort",
      eventKey: `cohort:${job.userId}:${job.cohort}`,
      content: SMS_TEXTS.cohort(deps.appUrl, job.cohort, track, start, `/program/${job.track}`),
    });
    await deps.mailer.send(
      emailLayout({
        to: row.email,
        name: row.name,
        subject: `Welcome to the ${job.cohort} cohort of Trading Academy`,
        heading: `Welcome to the ${job.cohort} cohort`,
        paragraphs: [
          `You have been admitted to the ${track} track of the ${job.cohort} cohort. The cohort starts on ${start}.`,
          job.month
            ? `Your month of the ${track} track runs from ${formatAcademyDay(new Date(job.month.start))} to ${formatAcademyDay(new Date(job.month.end))}. ${
                cohortStartInstant(row.startsOn).getTime() > Date.now()
                  ? "The program is open to you now, so you can look around before the start."
                  : "The program is open to you now."
              }`
            : `Your ${track} program is open now, with a month of access, so you can look around before the start.`,
        ],
        action: { label: `Open the ${track} program`, url: `${deps.appUrl}/program/${job.track}` },
      }),
    );
  };
}
