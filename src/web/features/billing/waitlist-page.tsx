// The paid waitlist (/join-waitlist; docs/product.md, "Waitlist page"): anyone may read it; paying
// needs a verified login. One month is paid up front for a place in the next quarterly cohort.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { BILLING_MESSAGES, type Prices, type WaitlistStatus } from "../../../shared/contracts/billing.ts";
import { PAID_PLANS, PLAN_LABELS, type PaidPlan } from "../../../shared/plans.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { notify } from "../../ui/toast.tsx";
import { useSignedInUser } from "../../session/session.ts";
import {
  startWaitlistCheckout,
  usePrices,
  useWaitlist,
  verifyWaitlistPayment,
} from "./billing-api.ts";
import { usePaystackCheckout, usePaystackScript, type PaystackCheckout } from "./paystack-checkout.ts";
import { ghsPerMonth, PLAN_FEATURES, PLAN_TITLES, TRACK_DESCRIPTIONS, usdPerMonth } from "./plan-details.ts";
import { TestModeNote } from "./test-mode-note.tsx";
import "./plans.css";

/** Login and registration bring the visitor back here (their ?redirect= is kept through both). */
const LOGIN_PATH = "/login?redirect=/join-waitlist";
const REGISTER_PATH = "/register?redirect=/join-waitlist";

export function WaitlistPage() {
  const { user, isPending: sessionPending } = useSignedInUser();
  const prices = usePrices();
  const waitlist = useWaitlist(user !== null);
  // Only someone who can still buy a place needs the payment script.
  const canBuy = waitlist.data !== undefined && PAID_PLANS.some((plan) => !waitlist.data.hidden[plan]);
  const scriptUrl = user && canBuy && prices.data?.payments.enabled ? prices.data.payments.inlineScriptUrl : null;
  const script = usePaystackScript(scriptUrl);
  const checkout = useWaitlistCheckout(user !== null);
  useToastOnce(prices.isError, BILLING_MESSAGES.waitlistPricesFailed);
  useToastOnce(script === "failed", BILLING_MESSAGES.waitlistServiceFailed);

  const cohortName = prices.data?.cohort.name ?? waitlist.data?.cohort.name;

  let body;
  if (sessionPending || (user && waitlist.isPending)) {
    body = (
      <p role="status" className="section-loading">
        Loading...
      </p>
    );
  } else if (!user) {
    body = (
      <>
        <div className="card stack waitlist-signin">
          <p>
            Paying for your place takes one month of the program up front and needs an account with a verified
            email. Create one, or sign in, and you will come straight back here.
          </p>
          <p className="page-actions">
            <Link to={REGISTER_PATH} className="button">
              Create Account
            </Link>
            <Link to={LOGIN_PATH} className="button button-secondary">
              Sign In
            </Link>
          </p>
        </div>
        <TrackCards tracks={PAID_PLANS} prices={prices.data} pricesFailed={prices.isError} checkout={checkout} />
      </>
    );
  } else if (waitlist.isError) {
    body = (
      <p role="alert" className="form-error">
        {waitlist.error.message}
      </p>
    );
  } else {
    const status = waitlist.data;
    const tracks = PAID_PLANS.filter((plan) => status && !status.hidden[plan]);
    body = (
      <>
        {status?.paid && <OnTheWaitlist status={status} />}
        {tracks.length > 0 ? (
          <TrackCards
            tracks={tracks}
            prices={prices.data}
            pricesFailed={prices.isError}
            paidPlan={status?.paidPlan ?? null}
            checkout={checkout}
          />
        ) : (
          !status?.paid && (
            <div className="card stack">
              <p>Your plan already includes every track on the waitlist.</p>
              <p>
                <Link to="/program" className="button">
                  Go to Dashboard
                </Link>
              </p>
            </div>
          )
        )}
      </>
    );
  }

  return (
    <section className="container section waitlist-page">
      <h1>Join the Waitlist</h1>
      <p className="section-lead">{cohortName ? `for the ${cohortName} cohort` : "for the next cohort"}</p>
      <p className="waitlist-intro">
        Programs start in quarterly cohorts. Pay for your first month now to hold your place in the next one.
      </p>
      {prices.isError && (
        <p role="alert" className="form-error page-notice">
          {BILLING_MESSAGES.waitlistPricesFailed}
        </p>
      )}
      {user && script === "failed" && (
        <p role="alert" className="form-error page-notice">
          {BILLING_MESSAGES.waitlistServiceFailed}
        </p>
      )}
      {canBuy && <TestModeNote testMode={prices.data?.payments.testMode} />}
      <p role="status" className={checkout.processing ? "form-info page-notice" : "visually-hidden"}>
        {checkout.processing
          ? `Processing your ${PLAN_TITLES[checkout.processing]} waitlist payment. Complete it in the payment window.`
          : ""}
      </p>
      {checkout.error && (
        <p role="alert" className="form-error page-notice">
          {checkout.error}
        </p>
      )}
      {body}
    </section>
  );
}

function useToastOnce(show: boolean, message: string) {
  const shown = useRef(false);
  useEffect(() => {
    if (!show || shown.current) return;
    shown.current = true;
    notify.error(message);
  }, [show, message]);
}

function OnTheWaitlist({ status }: { status: WaitlistStatus }) {
  return (
    <section className="card stack waitlist-joined page-notice" aria-labelledby="waitlist-joined-title">
      <h2 id="waitlist-joined-title">You're on the Waitlist</h2>
      <p>
        Your place is saved for the <strong>{status.cohort.name}</strong> cohort
        {status.paidPlan && (
          <>
            {" "}
            on the <strong>{PLAN_LABELS[status.paidPlan]}</strong> track
          </>
        )}
        .
      </p>
      {status.admitted && <p>You have been admitted: your programs are open now.</p>}
      <p>
        <Link to="/program" className="button">
          Go to Dashboard
        </Link>
      </p>
    </section>
  );
}

function TrackCards(props: {
  tracks: readonly PaidPlan[];
  prices: Prices | undefined;
  pricesFailed: boolean;
  paidPlan?: PaidPlan | null;
  checkout: PaystackCheckout;
}) {
  return (
    <ul className="plan-grid waitlist-grid">
      {props.tracks.map((plan) => (
        <TrackCard
          key={plan}
          plan={plan}
          prices={props.prices}
          pricesFailed={props.pricesFailed}
          purchased={props.paidPlan === plan}
          checkout={props.checkout}
        />
      ))}
    </ul>
  );
}

function TrackCard(props: {
  plan: PaidPlan;
  prices: Prices | undefined;
  pricesFailed: boolean;
  purchased: boolean;
  checkout: PaystackCheckout;
}) {
  const { plan, prices, checkout } = props;
  const titleId = useId();
  const price = prices?.waitlist[plan];
  let priceText: ReactNode = props.pricesFailed ? BILLING_MESSAGES.priceUnavailable : BILLING_MESSAGES.loading;
  if (price) {
    priceText = (
      <>
        <span className="nowrap">{usdPerMonth(price.usd)}</span>
        {" · "}
        <span className="nowrap">{price.ghs === null ? BILLING_MESSAGES.priceUnavailable : ghsPerMonth(price.ghs)}</span>
      </>
    );
  }

  const busy = checkout.processing === plan;
  let label = "Pay for 1 Month & Join Waitlist";
  if (props.purchased) label = "Already Purchased";
  else if (busy) label = "Processing...";

  return (
    <li className="card plan-card">
      <h2 id={titleId}>{PLAN_TITLES[plan]} track</h2>
      <p className="plan-description">{TRACK_DESCRIPTIONS[plan]}</p>
      <p className="plan-price">{priceText}</p>
      <ul className="topic-list" aria-label={`${PLAN_TITLES[plan]} features`}>
        {PLAN_FEATURES[plan].map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      {/* While busy, aria-disabled rather than disabled keeps the focus on the button just pressed,
          so the payment window can hand the focus back to it when it closes. */}
      <button
        type="button"
        className="button plan-button"
        aria-describedby={titleId}
        aria-busy={busy || undefined}
        aria-disabled={busy || undefined}
        disabled={props.purchased || (checkout.processing !== null && !busy)}
        onClick={() => checkout.purchase(plan)}
      >
        {label}
      </button>
    </li>
  );
}

/**
 * The waitlist flow (docs/product.md, "Waitlist page"): create the transaction on the server, open
 * the checkout, verify with type waitlist, then the success page. `error` stays on the page below
 * the toast.
 */
function useWaitlistCheckout(signedIn: boolean) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  function fail(toast: string, inline: string | null = null) {
    notify.error(toast);
    setError(inline);
  }

  const checkout = usePaystackCheckout({
    priceList: "waitlist",
    start() {
      if (!signedIn) {
        // docs/product.md, "Waitlist page": paying for a place needs a login.
        void navigate(LOGIN_PATH);
        return false;
      }
      setError(null);
      return true;
    },
    initialize: startWaitlistCheckout,
    verify: verifyWaitlistPayment,
    onVerified: () => notify.success(BILLING_MESSAGES.waitlistVerified),
    // The success page asks the server what this payment bought (docs/product.md, "Waitlist page").
    successPath: (_plan, reference) => `/join-waitlist/success?${new URLSearchParams({ reference })}`,
    onFailure(failure) {
      switch (failure.step) {
        case "prices":
          return fail(BILLING_MESSAGES.waitlistPricesFailed);
        case "disabled":
          return fail(BILLING_MESSAGES.waitlistServiceUnavailable);
        case "script":
          return fail(BILLING_MESSAGES.waitlistServiceFailed);
        case "price":
          return fail(BILLING_MESSAGES.priceMissing);
        case "initialize": {
          const { cause } = failure;
          if (cause instanceof ApiRequestError && cause.status === 401) return void navigate(LOGIN_PATH);
          const toast = cause instanceof Error ? cause.message : BILLING_MESSAGES.waitlistInlineFailed;
          return fail(toast, BILLING_MESSAGES.waitlistInlineFailed);
        }
        case "checkout":
          return fail(failure.message || BILLING_MESSAGES.waitlistServiceUnavailable, BILLING_MESSAGES.waitlistInlineFailed);
        case "declined":
          return fail(BILLING_MESSAGES.declined);
        case "verify": {
          // The server answered "no" (not paid, mismatch...) or the call itself broke.
          const refused = failure.cause instanceof ApiRequestError && failure.cause.status >= 400;
          const message = refused ? BILLING_MESSAGES.waitlistVerificationFailed : BILLING_MESSAGES.waitlistVerifyError;
          return fail(message, `${message} Payment reference: ${failure.reference}`);
        }
      }
    },
  });
  return { ...checkout, error };
}
