// Receipts and plan reminders, sent by the job queue once a payment is credited or a plan ends.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { formatGhs, priceAtRateText } from "../../../shared/billing.ts";
import { paymentMethodText, paymentPurpose, receiptPath, type Receipt } from "../../../shared/contracts/billing.ts";
import { PLAN_LABELS } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { cardAuthorizations, payments, refunds, renewalCharges, users } from "../../db/schema.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { Business } from "../../env.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { queueEventSms, SMS_TEXTS } from "../sms/sms.seam.ts";
import { receiptOf } from "./billing-history.ts";

const receiptJobSchema = z.object({ reference: z.string() });
const refundJobSchema = z.object({
  refundId: z.string(),
  taken: z.enum(["current", "queued", "waitlist", "nothing"]),
});
const autoRenewalFailedJobSchema = z.object({ chargeId: z.string() });
const reminderJobSchema = z.object({
  userId: z.string(),
  periodEnd: z.string(),
  kind: z.enum(["ending-soon", "expired"]),
});

function formatDate(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/** Who issues the receipt, a line each: the name, then the address and tax number when configured. */
function businessLines(business: Business): string {
  return [business.name, business.address, business.taxNumber && `Tax number: ${business.taxNumber}`].filter(Boolean).join("\n");
}

/** What the payment bought and for when: the month's dates, or the waitlist's cohort. */
function purposeText(receipt: Receipt): string {
  const purpose = paymentPurpose(receipt.kind, receipt.plan);
  if (receipt.periodStart && receipt.periodEnd) {
    return `${purpose}, ${formatDate(new Date(receipt.periodStart))} to ${formatDate(new Date(receipt.periodEnd))}`;
  }
  return receipt.cohort ? `${purpose}, ${receipt.cohort} cohort` : purpose;
}

/** A saved card as an email names it: "your Visa card ending in 4081". */
function cardNameOf(card: { brand: string | null; last4: string | null } | null | undefined): string {
  return card?.last4 ? `your ${card.brand ? `${card.brand} ` : ""}card ending in ${card.last4}` : "your card";
}

export function createBillingJobHandlers(deps: { db: Db; mailer: Mailer; appUrl: string; business: Business }) {
  return {
    /** The receipt email: what the receipt page shows, and a link to that page (docs/subscriptions.md, "Receipts"). */
    async receipt(payload: unknown) {
      const { reference } = receiptJobSchema.parse(payload);
      const [row] = await deps.db
        .select({ payment: payments, user: users })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .where(eq(payments.reference, reference));
      if (!row) return;
      const { payment, user } = row;
      const receipt = await receiptOf(deps.db, deps.business, payment, user.name);
      // The short receipt by SMS, once per payment (docs/product.md, "SMS").
      await queueEventSms(deps.db, {
        userId: user.id,
        preference: "receipts",
        kind: "receipt",
        eventKey: `receipt:${payment.reference}`,
        content: SMS_TEXTS.receipt(deps.appUrl, `GHS ${(payment.amountMinor / 100).toFixed(2)}`, receiptPath(payment.reference)),
      });
      const what =
        payment.kind === "waitlist"
          ? `your place on the waitlist (${PLAN_LABELS[payment.plan]} track) and its first month`
          : `one month of the ${PLAN_LABELS[payment.plan]} plan`;
      const lines = [
        `Thank you for your payment for ${what}.`,
        `Receipt from:\n${businessLines(receipt.business)}`,
        `Billed to: ${receipt.name ? `${receipt.name} (${receipt.email})` : receipt.email}`,
        `For: ${purposeText(receipt)}`,
        `Amount: ${formatGhs(receipt.amountMinor)} (${priceAtRateText(receipt.priceUsdCents, receipt.exchangeRate)})`,
        `Paid with: ${receipt.method ? paymentMethodText(receipt.method) : "Paystack"}`,
        `Paystack reference: ${receipt.reference}`,
        `Paid on: ${formatDate(payment.paidAt ?? payment.createdAt)}`,
        ...receipt.refunds.map(
          (refund) => `Refunded: ${formatGhs(refund.amountMinor)} on ${formatDate(new Date(refund.processedAt ?? refund.createdAt))}`,
        ),
        ...(payment.kind === "subscription" && user.subscriptionEnd
          ? [`Your plan runs until: ${formatDate(user.subscriptionEnd)}`]
          : []),
        // Paid time of a lower plan runs after the current period (docs/subscriptions.md).
        ...(payment.kind === "subscription" && user.queuedPlan && user.queuedEnd
          ? [`Then ${PLAN_LABELS[user.queuedPlan]} until: ${formatDate(user.queuedEnd)}`]
          : []),
      ];
      await deps.mailer.send(
        emailLayout({
          to: user.email,
          name: user.name,
          subject: `Your Trading Academy receipt ${payment.reference}`,
          heading: "Payment receipt",
          paragraphs: [...lines, "Open the receipt to print it, or to save it as a PDF for your records."],
          action: { label: "View your receipt", url: `${deps.appUrl}${receiptPath(payment.reference)}` },
        }),
      );
    },

    /** The refund email (docs/subscriptions.md, "Refunds"): what was given back and what it took. */
    async refund(payload: unknown) {
      const { refundId, taken } = refundJobSchema.parse(payload);
      const [row] = await deps.db
        .select({ refund: refunds, payment: payments, user: users })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .innerJoin(users, eq(users.id, payments.userId))
        .where(eq(refunds.id, refundId));
      if (!row) return;
      const { refund, payment, user } = row;
      const plan = PLAN_LABELS[payment.plan];
      const after: Record<typeof taken, string> = {
        current: user.subscriptionEnd && user.subscriptionStatus === "active" && user.subscriptionEnd > new Date()
          ? `The month it bought has been taken off your plan: your access now runs until ${formatDate(user.subscriptionEnd)}.`
          : "The month it bought has been taken off your plan, so your access is back to the free Beginner program.",
        queued: `The month of ${plan} it bought, which was to follow your current plan, has been taken off.`,
        waitlist: `Your place on the waitlist for the ${plan} track has been released.`,
        nothing: "Your access is unchanged.",
      };
      await deps.mailer.send(
        emailLayout({
          to: user.email,
          name: user.name,
          subject: `Your Trading Academy refund for ${payment.reference}`,
          heading: "Refund",
          paragraphs: [
            `We have refunded ${formatGhs(refund.amountMinor)} of your payment ${payment.reference} (${paymentPurpose(payment.kind, payment.plan)}).`,
            "Paystack returns it to the card or mobile money wallet you paid with; your bank or network may take a few days to show it.",
            after[taken],
          ],
          action: { label: "See my payments", url: `${deps.appUrl}/subscription` },
        }),
      );
    },

    /**
     * An automatic renewal that failed, in words (docs/subscriptions.md, "Automatic renewal"): why,
     * that nothing was charged and no time added, whether one more try comes tomorrow, and how to
     * renew by hand.
     */
    async autoRenewalFailed(payload: unknown) {
      const { chargeId } = autoRenewalFailedJobSchema.parse(payload);
      const [row] = await deps.db
        .select({ charge: renewalCharges, user: users, card: cardAuthorizations })
        .from(renewalCharges)
        .innerJoin(users, eq(users.id, renewalCharges.userId))
        .leftJoin(cardAuthorizations, eq(cardAuthorizations.userId, renewalCharges.userId))
        .where(eq(renewalCharges.id, chargeId));
      if (!row) return;
      const { charge, user, card } = row;
      const cardName = cardNameOf(card);
      const retry = charge.attempt === 1 && user.autoRenew;
      await deps.mailer.send(
        emailLayout({
          to: user.email,
          name: user.name,
          subject: "We could not renew your Trading Academy plan",
          heading: "Your automatic renewal did not go through",
          paragraphs: [
            `We tried to renew your ${PLAN_LABELS[charge.plan]} plan by charging ${cardName}, and it did not go through. ${charge.failure ?? ""}`.trim(),
            "You have not been charged and no time was added to your plan: when your month ends, your access goes back to the free Beginner program.",
            retry
              ? "We will try once more tomorrow. To keep your access without waiting, renew now from your subscription page."
              : "We will not try again. Renew from your subscription page whenever you are ready to continue.",
          ],
          action: { label: "Renew my plan", url: `${deps.appUrl}/subscription` },
        }),
      );
    },

    async expiryReminder(payload: unknown) {
      const reminder = reminderJobSchema.parse(payload);
      const [user] = await deps.db.select().from(users).where(eq(users.id, reminder.userId));
      if (!user?.subscriptionPlan || user.subscriptionPlan === "legacyFree" || user.subscriptionPlan === "admin") return;
      // Renewed since the reminder was queued, or paid time queued after it: nothing to remind.
      if (user.subscriptionEnd?.toISOString() !== reminder.periodEnd || user.queuedPlan !== null) return;
      const plan = PLAN_LABELS[user.subscriptionPlan];
      const ending = reminder.kind === "ending-soon";
      const [card] = await deps.db.select().from(cardAuthorizations).where(eq(cardAuthorizations.userId, user.id));
      // A card payer who chose automatic renewal is told what will happen, not asked to renew.
      const renewsItself = ending && user.autoRenew && card?.reusable === true;
      const cardName = cardNameOf(card);
      await queueEventSms(deps.db, {
        userId: user.id,
        preference: "reminders",
        kind: "reminder",
        eventKey: `reminder:${user.id}:${reminder.periodEnd}:${reminder.kind}`,
        content: ending ? SMS_TEXTS.endingSoon(deps.appUrl, plan, user.subscriptionEnd) : SMS_TEXTS.expired(deps.appUrl, plan),
      });
      await deps.mailer.send(
        emailLayout({
          to: user.email,
          name: user.name,
          subject: ending ? `Your Trading Academy plan ends on ${formatDate(user.subscriptionEnd)}` : "Your Trading Academy plan has ended",
          heading: ending ? "Your plan ends soon" : "Your plan has ended",
          paragraphs: [
            ending
              ? `Your ${plan} month ends on ${formatDate(user.subscriptionEnd)}.${renewsItself ? "" : " Renew before then to keep your access."}`
              : `Your ${plan} month has ended, so your access is back to the free Beginner program.`,
            renewsItself
              ? `Automatic renewal is on: on that day we will charge ${cardName} for the next month, at that day's price and rate. To stop it, turn it off on your subscription page.`
              : "Mobile money cannot be charged again automatically: renew whenever you are ready to continue.",
          ],
          action: { label: "Renew my plan", url: `${deps.appUrl}/subscription` },
        }),
      );
    },
  };
}
