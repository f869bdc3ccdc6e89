// Receipts and plan reminders, sent by the job queue once a payment is credited or a plan ends.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { PLAN_LABELS } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { payments, users } from "../../db/schema.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { Mailer } from "../../integrations/mail.ts";

const receiptJobSchema = z.object({ reference: z.string() });
const reminderJobSchema = z.object({
  userId: z.string(),
  periodEnd: z.string(),
  kind: z.enum(["ending-soon", "expired"]),
});

function formatDate(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

export function createBillingJobHandlers(deps: { db: Db; mailer: Mailer; appUrl: string }) {
  return {
    async receipt(payload: unknown) {
      const { reference } = receiptJobSchema.parse(payload);
      const [row] = await deps.db
        .select({ payment: payments, user: users })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .where(eq(payments.reference, reference));
      if (!row) return;
      const { payment, user } = row;
      const cedis = (payment.amountMinor / 100).toFixed(2);
      const usd = (payment.priceUsdCents / 100).toFixed(2);
      const what =
        payment.kind === "waitlist"
          ? `your place on the waitlist (${PLAN_LABELS[payment.plan]} track) and its first month`
          : `one month of the ${PLAN_LABELS[payment.plan]} plan`;
      const lines = [
        `Thank you for your payment for ${what}.`,
        `Amount: GH₵ ${cedis} (US$ ${usd} at ${payment.exchangeRate} cedis per dollar)`,
        `Reference: ${payment.reference}`,
        `Paid on: ${formatDate(payment.paidAt ?? payment.createdAt)}`,
        ...(payment.kind === "subscription" && user.subscriptionEnd
          ? [`Your plan runs until: ${formatDate(user.subscriptionEnd)}`]
          : []),
      ];
      await deps.mailer.send(
        emailLayout({
          to: user.email,
          name: user.name,
          subject: `Your Trading Academy receipt ${payment.reference}`,
          heading: "Payment receipt",
          paragraphs: lines,
          action: { label: "Go to my programs", url: `${deps.appUrl}/program` },
        }),
      );
    },

    async expiryReminder(payload: unknown) {
      const reminder = reminderJobSchema.parse(payload);
      const [user] = await deps.db.select().from(users).where(eq(users.id, reminder.userId));
      if (!user?.subscriptionPlan || user.subscriptionPlan === "legacyFree" || user.subscriptionPlan === "admin") return;
      // Renewed since the reminder was queued: nothing to remind.
      if (user.subscriptionEnd?.toISOString() !== reminder.periodEnd) return;
      const plan = PLAN_LABELS[user.subscriptionPlan];
      const ending = reminder.kind === "ending-soon";
      await deps.mailer.send(
        emailLayout({
          to: user.email,
          name: user.name,
          subject: ending ? `Your Trading Academy plan ends on ${formatDate(user.subscriptionEnd)}` : "Your Trading Academy plan has ended",
          heading: ending ? "Your plan ends soon" : "Your plan has ended",
          paragraphs: [
            ending
              ? `Your ${plan} month ends on ${formatDate(user.subscriptionEnd)}. Renew before then to keep your access.`
              : `Your ${plan} month has ended, so your access is back to the free Beginner program.`,
            "Mobile money cannot be charged again automatically: renew whenever you are ready to continue.",
          ],
          action: { label: "Renew my plan", url: `${deps.appUrl}/subscription` },
        }),
      );
    },
  };
}
