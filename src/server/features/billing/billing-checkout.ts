// Checkout: the Paystack transaction for a plan, created and priced by the server (quote()), and
// stored as pending until crediting confirms it.
import { eq } from "drizzle-orm";
import { paymentReference } from "../../../shared/billing.ts";
import { BILLING_MESSAGES } from "../../../shared/contracts/billing.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import type { CurrentUser } from "../../auth/session.ts";
import { payments } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { loadPriceBook, quote } from "./billing-pricing.ts";
import { waitlistHidden } from "./billing-waitlist.ts";
import { requireEligible, type BillingDeps, type Kind } from "./billing.service.ts";

/** Creates the Paystack transaction for a plan, priced by quote(), and stores it as pending. */
export async function startCheckout(
  deps: BillingDeps,
  user: CurrentUser,
  input: { kind: Kind; plan: PaidPlan },
  now: Date,
): Promise<{ reference: string; accessCode: string }> {
  if (!deps.paystack) throw new HttpError(503, "PAYMENTS_DISABLED", BILLING_MESSAGES.serviceUnavailable);
  if (input.kind === "subscription") {
    requireEligible(user, input.plan, now);
  } else if (waitlistHidden(user)[input.plan]) {
    throw new HttpError(409, "ALREADY_PURCHASED", "You have already paid for this track.");
  }

  const price = quote(await loadPriceBook(deps, now), input.kind, input.plan);
  if (price.ghsPesewas === null) throw new HttpError(503, "PRICE_UNAVAILABLE", BILLING_MESSAGES.priceMissing);
  const amountMinor = price.ghsPesewas;

  // References carry a millisecond timestamp; on the rare clash, the next millisecond is used.
  let reference = "";
  for (let attempt = 0; ; attempt++) {
    reference = paymentReference(input.kind, input.plan, now.getTime() + attempt);
    const inserted = await deps.db
      .insert(payments)
      .values({
        reference,
        userId: user.id,
        userEmail: user.email,
        kind: input.kind,
        plan: input.plan,
        amountMinor,
        currency: "GHS",
        priceUsdCents: price.usdCents,
        exchangeRate: String(price.ghsPerUsd),
      })
      .onConflictDoNothing()
      .returning({ reference: payments.reference });
    if (inserted.length > 0) break;
    if (attempt >= 20) throw new Error("could not allocate a payment reference");
  }

  try {
    const { accessCode } = await deps.paystack.initialize({
      email: user.email,
      amountMinor,
      currency: "GHS",
      reference,
      metadata: { userId: user.id, plan: input.plan, kind: input.kind },
      callbackUrl: `${deps.env.appUrl}${input.kind === "waitlist" ? "/join-waitlist" : "/subscription"}`,
    });
    return { reference, accessCode };
  } catch (error) {
    await deps.db.update(payments).set({ status: "failed" }).where(eq(payments.reference, reference));
    deps.log.error({ err: error, reference }, "paystack initialize failed");
    throw new HttpError(502, "PAYMENT_INIT_FAILED", BILLING_MESSAGES.serviceUnavailable);
  }
}
