// The plans (/subscription; docs/product.md, "Subscription page"): Free, Intermediate and Advanced,
// the current plan's status, and its purchase flow through Paystack's inline checkout.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Link } from "react-router";
import { remainingDaysLabel, subscriptionPaymentOutcome } from "../../../shared/billing.ts";
import { BILLING_MESSAGES, checkoutDisclosure, type Prices, type Subscription } from "../../../shared/contracts/billing.ts";
import { PAID_PLANS, tracksForPlan, type PaidPlan, type Plan } from "../../../shared/plans.ts";
import { notify } from "../../ui/toast.tsx";
import { useSignedInUser } from "../../session/session.ts";
import { usePrograms } from "../learning/catalog.seam.ts";
import {
  checkEligibility,
  createSubscription,
  useEligibility,
  usePrices,
  useSubscription,
  useSubscriptionQuote,
  verifySubscriptionPayment,
} from "./billing-api.ts";
import { AutoRenewalSetting } from "./auto-renewal.tsx";
import { PaymentHistory } from "./payment-history.tsx";
import { useVerifyPendingPayments } from "./pending-payments.ts";
import { PlanSupport } from "./plan-support.tsx";
import { usePaystackCheckout, usePaystackScript } from "./paystack-checkout.ts";
import {
  formatDate,
  ghsPerMonth,
  PLAN_FEATURES,
  PLAN_TITLES,
  usdPerMonth,
  type PlanCardId,
} from "./plan-details.ts";
import { TestModeNote } from "./test-mode-note.tsx";
import "./plans.css";

const ADMIN_NOTE = "Administrators have every program.";

export function SubscriptionPage() {
  const { user } = useSignedInUser();
  const prices = usePrices();
  const subscription = useSubscription();
  const checkout = useSubscriptionCheckout();
  useVerifyPendingPayments();
  const adminNoteId = useId();
  // Administrators buy nothing, so only learners load the payment script.
  usePaystackScript(!user?.isAdmin && prices.data?.payments.enabled ? prices.data.payments.inlineScriptUrl : null);
  usePricesFailedToast(prices.isError);

  // The guard above this page only renders it for a verified user.
  if (!user) return null;
  // The server's answer is the fresher one; the session's plan stands in should it fail.
  const currentPlan: Plan = subscription.data?.plan.name ?? user.plan;
  const isAdmin = user.isAdmin || currentPlan === "admin";
  // docs/subscriptions.md, "The subscription lock flag": the config lock flag (subscription.locked)
  // is read, but the original rendered the same content whether it was set or not, so nothing on
  // this page branches on it.

  return (
    <section className="container section subscription-page">
      <h1>Subscription Plans</h1>
      <p className="section-lead">Pick the program level that fits you. Each paid plan is one prepaid month.</p>

      {/* The plans wait for the subscription, whose status card goes above them: shown later, it
          would push them down as they are being read. */}
      {subscription.isPending ? (
        <p role="status" className="section-loading">
          {BILLING_MESSAGES.loading}
        </p>
      ) : (
        <>
          {subscription.data?.status === "active" && <StatusCard subscription={subscription.data} />}
          {isAdmin && (
            <p id={adminNoteId} className="form-info page-notice">
              {ADMIN_NOTE}
            </p>
          )}
          {prices.isError && (
            <p role="alert" className="form-error page-notice">
              {BILLING_MESSAGES.pricesFailed}
            </p>
          )}
          <p role="status" className={checkout.processing ? "form-info page-notice" : "visually-hidden"}>
            {checkout.processing
              ? `Processing your ${PLAN_TITLES[checkout.processing]} payment. Complete it in the payment window.`
              : ""}
          </p>

          <ul className="plan-grid">
            <PlanCard
              id="free"
              usd={usdPerMonth(0)}
              ghs={ghsPerMonth(0)}
              action={
                currentPlan === "legacyFree" ? (
                  <PlanButton label="Current Plan" disabled />
                ) : (
                  <p className="plan-included">Included with every plan.</p>
                )
              }
            />
            {PAID_PLANS.map((plan) => (
              <PlanCard
                key={plan}
                id={plan}
                popular={plan === "advanced"}
                usd={priceText(prices, plan, "usd")}
                ghs={priceText(prices, plan, "ghs")}
                action={
                  <PaidPlanAction
                    plan={plan}
                    currentPlan={currentPlan}
                    isAdmin={isAdmin}
                    adminNoteId={adminNoteId}
                    processing={checkout.processing}
                    onBuy={checkout.purchase}
                  />
                }
              />
            ))}
          </ul>

          <PlanSupport plan={currentPlan} />
          <p className="page-actions">
            <Link to="/program" className="button button-secondary">
              Go to My Program
            </Link>
          </p>
          {/* Below the plans: it is known only once the prices are in, and above them it would
              push them down when it appears. */}
          <TestModeNote testMode={prices.data?.payments.testMode} />
          <PaymentHistory />
        </>
      )}
    </section>
  );
}

type PricesState = { data?: Prices; isPending: boolean; isError: boolean };

function priceText(prices: PricesState, plan: PaidPlan, currency: "usd" | "ghs"): string {
  if (prices.isPending) return BILLING_MESSAGES.loading;
  const price = prices.data?.subscription[plan];
  if (!price) return BILLING_MESSAGES.priceUnavailable;
  if (currency === "usd") return usdPerMonth(price.usd);
  return price.ghs === null ? BILLING_MESSAGES.priceUnavailable : ghsPerMonth(price.ghs);
}

/**
 * docs/product.md, "Subscription page": the prices failure is said once as a toast, and stays on
 * the page as text.
 */
function usePricesFailedToast(failed: boolean) {
  const toasted = useRef(false);
  useEffect(() => {
    if (!failed || toasted.current) return;
    toasted.current = true;
    notify.error(BILLING_MESSAGES.pricesFailed);
  }, [failed]);
}

function StatusCard({ subscription }: { subscription: Subscription }) {
  const { remainingDays, currentPeriodEnd } = subscription;
  return (
    <section className="card subscription-status page-notice" aria-labelledby="subscription-status-title">
      <h2 id="subscription-status-title">Your subscription</h2>
      <dl className="status-list">
        <div>
          <dt>Current plan</dt>
          <dd>{subscription.plan.label}</dd>
        </div>
        {remainingDays !== null && (
          <div>
            <dt>Remaining</dt>
            <dd>{remainingDaysLabel(remainingDays)}</dd>
          </div>
        )}
        {currentPeriodEnd && (
          <div>
            <dt>Ends on</dt>
            <dd>
              <time dateTime={currentPeriodEnd}>{formatDate(currentPeriodEnd)}</time>
            </dd>
          </div>
        )}
      </dl>
      <QueuedTime queued={subscription.queued} />
      <AutoRenewalSetting />
    </section>
  );
}

/** Paid time of a lower plan queued after this period (docs/subscriptions.md, "Paid time is never lost"). */
function QueuedTime({ queued }: { queued: Subscription["queued"] }) {
  if (!queued) return null;
  return (
    <p className="subscription-queued">
      Then {queued.plan.label} until <time dateTime={queued.endsAt}>{formatDate(queued.endsAt)}</time>
    </p>
  );
}

function PlanCard(props: { id: PlanCardId; popular?: boolean; usd: string; ghs?: string; action: ReactNode }) {
  const title = PLAN_TITLES[props.id];
  // Every program of the levels the plan opens, as the catalogue has them now.
  const levels = tracksForPlan(props.id === "free" ? "legacyFree" : props.id);
  const programs = usePrograms().data?.filter((program) => levels.includes(program.level)) ?? [];
  return (
    <li className={props.popular ? "card plan-card plan-card-popular" : "card plan-card"}>
      <div className="plan-card-head">
        <h2 id={`plan-${props.id}`}>{title}</h2>
        {props.popular && <span className="plan-badge">POPULAR</span>}
      </div>
      <p className="plan-price">{props.usd}</p>
      {props.ghs && <p className="plan-price-ghs">{props.ghs}</p>}
      <ul className="topic-list" aria-label={`${title} features`}>
        {PLAN_FEATURES[props.id].map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      {programs.length > 0 && (
        <p className="plan-programs">
          <span className="plan-programs-label">Programs:</span> {programs.map((program) => program.title).join(", ")}
        </p>
      )}
      {props.action}
    </li>
  );
}

function PlanButton(props: {
  label: string;
  disabled?: boolean;
  busy?: boolean;
  describedBy?: string;
  onClick?: () => void;
}) {
  // A busy button is the one just pressed: aria-disabled rather than disabled keeps the focus on
  // it, so the payment window can hand the focus back to it when it closes.
  return (
    <button
      type="button"
      className="button plan-button"
      disabled={props.disabled && !props.busy}
      aria-disabled={props.busy || undefined}
      aria-busy={props.busy || undefined}
      aria-describedby={props.describedBy}
      onClick={props.onClick}
    >
      {props.label}
    </button>
  );
}

function PaidPlanAction(props: {
  plan: PaidPlan;
  currentPlan: Plan;
  isAdmin: boolean;
  adminNoteId: string;
  processing: PaidPlan | null;
  onBuy(plan: PaidPlan): void;
}) {
  const { plan, currentPlan, isAdmin, processing } = props;
  const isCurrent = currentPlan === plan;
  const eligibility = useEligibility(plan, !isAdmin);
  const reasonId = useId();
  const disclosureId = useId();
  const titleId = `plan-${plan}`;
  const buyable = !isAdmin && eligibility.data?.canChange === true;
  const disclosure = <CheckoutDisclosure plan={plan} id={disclosureId} enabled={buyable && processing === null} />;

  // The button just pressed stays the same element while its payment is processing (the same
  // place in the tree), so the payment window can hand the focus back to it when it closes.
  const busy = processing === plan;
  const onBuy = busy ? undefined : () => props.onBuy(plan);

  if (isAdmin) return <PlanButton label="Included" disabled describedBy={`${titleId} ${props.adminNoteId}`} />;
  // In the last days of the month the current plan can be renewed (the new month starts at its end).
  if (isCurrent && eligibility.data?.canChange !== true) {
    return <PlanButton label="Current Plan" disabled describedBy={titleId} />;
  }
  if (isCurrent) {
    return (
      <>
        <p className="plan-restriction">Current Plan: renew now and your next month starts when this one ends.</p>
        {disclosure}
        <PlanButton
          label={busy ? "Processing..." : "Renew"}
          busy={busy}
          disabled={processing !== null}
          describedBy={`${titleId} ${disclosureId}`}
          onClick={onBuy}
        />
      </>
    );
  }

  const restriction = eligibility.data?.canChange === false ? eligibility.data : null;
  if (restriction) {
    const days = restriction.daysToWait;
    return (
      <>
        <p id={reasonId} className="plan-restriction">
          {restriction.reason ?? BILLING_MESSAGES.cannotChange}
        </p>
        <PlanButton label={`Wait ${days} ${days === 1 ? "day" : "days"}`} disabled describedBy={`${titleId} ${reasonId}`} />
      </>
    );
  }
  return (
    <>
      {disclosure}
      <PlanButton
        label={busy ? "Processing..." : currentPlan === "legacyFree" ? "Upgrade" : "Change Plan"}
        busy={busy}
        disabled={processing !== null}
        describedBy={`${titleId} ${disclosureId}`}
        onClick={onBuy}
      />
    </>
  );
}

/**
 * Before paying, what the payment will do (docs/product.md, "Subscription page"): the price now,
 * the new plan's dates and what becomes of the days left, as the server's quote says. Kept while a
 * payment is processing, so the words do not move under the learner.
 */
function CheckoutDisclosure(props: { plan: PaidPlan; id: string; enabled: boolean }) {
  const quote = useSubscriptionQuote(props.plan, props.enabled);
  if (quote.isError) {
    return (
      <p id={props.id} className="plan-disclosure plan-disclosure-error">
        {quote.error.message}
      </p>
    );
  }
  if (!quote.data) return <p id={props.id} className="visually-hidden" />;
  return (
    <div id={props.id} className="plan-disclosure">
      <p className="plan-disclosure-title">Before you pay</p>
      {checkoutDisclosure(quote.data, formatDate).map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </div>
  );
}

/**
 * The subscription flow of docs/product.md, "Subscription page": check eligibility, create the
 * transaction on the server, open the checkout, verify the reference, then land on
 * /program?payment=success.
 */
function useSubscriptionCheckout() {
  const { user } = useSignedInUser();
  const subscription = useSubscription();
  const currentPlan = () => subscription.data?.plan.name ?? user?.plan ?? null;
  return usePaystackCheckout({
    priceList: "subscription",
    async check(plan) {
      // docs/product.md, "Subscription page": a failed eligibility check is only logged; the server
      // checks again.
      const eligibility = await checkEligibility(plan).catch((error: unknown) => {
        console.error("eligibility check failed", error);
        return null;
      });
      if (eligibility && !eligibility.canChange) {
        notify.error(eligibility.reason ?? BILLING_MESSAGES.cannotChange);
        return false;
      }
      return true;
    },
    initialize: createSubscription,
    verify: verifySubscriptionPayment,
    onPaid: () => notify.info(BILLING_MESSAGES.completedVerifying),
    // The program list says what the payment did on arrival (?payment=success for an upgrade,
    // renewed or queued: paymentOutcomeMessage), so no toast says it here too. The plan before the
    // payment decides, as it decides the Renew button.
    successPath: (plan) => `/program?payment=${subscriptionPaymentOutcome(currentPlan(), plan)}`,
    onFailure(failure) {
      switch (failure.step) {
        case "prices":
        case "price":
          return notify.error(BILLING_MESSAGES.priceMissing);
        case "disabled":
        case "script":
          return notify.error(BILLING_MESSAGES.serviceUnavailable);
        case "initialize":
          return notify.error(failure.cause instanceof Error ? failure.cause.message : BILLING_MESSAGES.serviceUnavailable);
        case "checkout":
          return notify.error(failure.message || BILLING_MESSAGES.serviceUnavailable);
        case "declined":
          return notify.error(BILLING_MESSAGES.declined);
        case "verify": {
          const message = failure.cause instanceof Error ? failure.cause.message : BILLING_MESSAGES.verifyFailed;
          return notify.paymentIssue(BILLING_MESSAGES.postPaymentIssue(message, failure.reference));
        }
      }
    },
  });
}
