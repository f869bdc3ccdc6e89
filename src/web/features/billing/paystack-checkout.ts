// Paystack's inline checkout (v2): its script is loaded once, on the pages that sell, and the
// transaction the server created is resumed by its access code (docs/integrations.md, "Paystack").
// The browser never chooses an amount.
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { BILLING_MESSAGES, type PaymentStatus } from "../../../shared/contracts/billing.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import { notify } from "../../ui/toast.tsx";
import { reportCheckoutClosed, usePaymentCredited, usePricesForCheckout } from "./billing-api.ts";

export type PaystackTransactionResult = {
  id?: number | string;
  reference?: string;
  message?: string;
  status?: string;
  trans?: string;
  trxref?: string;
};

export type CheckoutCallbacks = {
  onSuccess(transaction: PaystackTransactionResult): void;
  onCancel(): void;
  onLoad?(): void;
  onError(error: { message?: string }): void;
};

type PaystackPopInstance = {
  resumeTransaction(accessCode: string, callbacks: CheckoutCallbacks): void;
};

declare global {
  interface Window {
    /** Set by Paystack's inline script (or the simulator's, which speaks the same API). */
    PaystackPop?: new () => PaystackPopInstance;
  }
}

const loading = new Map<string, Promise<void>>();

/**
 * Loads the inline script at `url` once per page life; callers share the same promise. A failed
 * load is forgotten (and its tag removed), so a later attempt tries again.
 */
export function loadPaystackScript(url: string): Promise<void> {
  if (window.PaystackPop) return Promise.resolve();
  const pending = loading.get(url);
  if (pending) return pending;

  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.addEventListener("load", () => {
      if (window.PaystackPop) resolve();
      else reject(new Error("The payment script loaded without PaystackPop"));
    });
    script.addEventListener("error", () => {
      script.remove();
      reject(new Error(`The payment script could not be loaded from ${url}`));
    });
    document.head.appendChild(script);
  });
  loading.set(url, promise);
  promise.catch(() => loading.delete(url));
  return promise;
}

/**
 * True once the script is loaded: the "payment script missing" block of
 * docs/product.md, "Subscription page".
 */
export function isCheckoutReady(): boolean {
  return window.PaystackPop !== undefined;
}

/** Opens the checkout for a transaction the server initialized. */
export function openCheckout(accessCode: string, callbacks: CheckoutCallbacks): void {
  const PaystackPop = window.PaystackPop;
  if (!PaystackPop) throw new Error("The payment script is not loaded");
  new PaystackPop().resumeTransaction(accessCode, callbacks);
}

export type ScriptState = "none" | "loading" | "ready" | "failed";

/**
 * Starts loading the script as soon as a selling page knows its address, so that the checkout
 * opens at once on a click. `url` is null while prices load or when payments are disabled.
 */
export function usePaystackScript(url: string | null): ScriptState {
  const [settled, setSettled] = useState<{ url: string; ready: boolean } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    loadPaystackScript(url).then(
      () => current && setSettled({ url, ready: true }),
      () => current && setSettled({ url, ready: false }),
    );
    return () => {
      current = false;
    };
  }, [url]);
  if (!url) return "none";
  if (settled?.url !== url) return isCheckoutReady() ? "ready" : "loading";
  return settled.ready ? "ready" : "failed";
}

/** Where a purchase stopped, for the selling page to say in its own words. */
export type CheckoutFailure =
  | { step: "prices" } // the prices could not be had
  | { step: "disabled" } // payments are off, or there is no script to load
  | { step: "script" } // the script did not load
  | { step: "price" } // no cedi price for this plan
  | { step: "initialize"; cause: unknown } // the server did not create the transaction
  | { step: "checkout"; message: string | undefined } // Paystack's checkout reported an error
  | { step: "declined" } // the checkout closed and Paystack says the payment was declined
  | { step: "verify"; cause: unknown; reference: string }; // paid, but not confirmed and credited

/** What the selling pages do differently around the one purchase sequence. */
export type PaystackCheckoutOptions = {
  /** Which of the server's price lists sells the plan. */
  priceList: "subscription" | "waitlist";
  /** Runs before anything shows; false stops there (the waitlist sends a visitor to log in). */
  start?(plan: PaidPlan): boolean;
  /** Runs while the button says so; false stops, having said why (the subscription's eligibility). */
  check?(plan: PaidPlan): Promise<boolean>;
  /** Asks the server to price the plan and create the transaction. */
  initialize(plan: PaidPlan): Promise<{ reference: string; accessCode: string }>;
  /** Asks the server to confirm the reference with Paystack and credit it. */
  verify(reference: string, plan: PaidPlan): Promise<unknown>;
  /** Paystack reports the payment: said before it is verified. */
  onPaid?(): void;
  /** The server credited the payment: said before leaving for `successPath`. */
  onVerified?(): void;
  /** Where to go once the plan is credited (the reference names the payment to the page there). */
  successPath: string | ((plan: PaidPlan, reference: string) => string);
  /** Says why a purchase stopped; the buttons are freed right after. */
  onFailure(failure: CheckoutFailure): void;
};

/**
 * The purchase of docs/product.md ("Subscription page", "Waitlist page"), for both selling pages:
 * the prices, the script, the transaction the server creates and prices, Paystack's checkout, then
 * the server's verification. `processing` is the plan being bought, if any.
 */
export function usePaystackCheckout(options: PaystackCheckoutOptions) {
  const navigate = useNavigate();
  const pricesForCheckout = usePricesForCheckout();
  const paymentCredited = usePaymentCredited();
  const [processing, setProcessing] = useState<PaidPlan | null>(null);
  // A second click lands before React re-renders the disabled button: guard synchronously too.
  const busy = useRef(false);

  function finish() {
    busy.current = false;
    setProcessing(null);
  }

  function fail(failure: CheckoutFailure) {
    options.onFailure(failure);
    finish();
  }

  async function verify(reference: string, plan: PaidPlan) {
    options.onPaid?.();
    try {
      await options.verify(reference, plan);
      options.onVerified?.();
      await paymentCredited();
      await navigate(typeof options.successPath === "string" ? options.successPath : options.successPath(plan, reference));
      finish();
    } catch (cause) {
      fail({ step: "verify", cause, reference });
    }
  }

  /**
   * The checkout closed: the server asks Paystack at once and answers the payment's status
   * (docs/subscriptions.md, "Asking Paystack"). Paid after all: verified as onSuccess would be.
   */
  async function closed(reference: string, plan: PaidPlan) {
    const status: PaymentStatus = await reportCheckoutClosed(reference).then(
      (answer) => answer.status,
      () => "pending",
    );
    await paymentCredited();
    if (status === "success") return verify(reference, plan);
    if (status === "failed") return fail({ step: "declined" });
    if (status === "mismatched") return fail({ step: "verify", cause: new Error(BILLING_MESSAGES.mismatch), reference });
    // Not paid, or not settled yet: the spec's own words (the history says which).
    notify.info(BILLING_MESSAGES.windowClosed);
    finish();
  }

  async function purchase(plan: PaidPlan) {
    if (busy.current) return;
    if (options.start && !options.start(plan)) return;
    busy.current = true;
    setProcessing(plan);

    if (options.check && !(await options.check(plan))) return finish();
    const prices = await pricesForCheckout();
    if (!prices) return fail({ step: "prices" });
    const { enabled, inlineScriptUrl } = prices.payments;
    if (!enabled || inlineScriptUrl === null) return fail({ step: "disabled" });
    const loaded = await loadPaystackScript(inlineScriptUrl).then(() => true, () => false);
    if (!loaded) return fail({ step: "script" });
    if (prices[options.priceList][plan].ghs === null) return fail({ step: "price" });

    try {
      const { reference, accessCode } = await options.initialize(plan);
      openCheckout(accessCode, {
        onSuccess: () => void verify(reference, plan),
        onCancel: () => void closed(reference, plan),
        onError: ({ message }) => {
          // A checkout that could not load was not paid: the server settles it, unasked for an answer.
          void reportCheckoutClosed(reference).catch(() => undefined);
          fail({ step: "checkout", message });
        },
      });
    } catch (cause) {
      fail({ step: "initialize", cause });
    }
  }

  return { processing, purchase: (plan: PaidPlan) => void purchase(plan) };
}

export type PaystackCheckout = ReturnType<typeof usePaystackCheckout>;
