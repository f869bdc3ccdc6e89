// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Prices } from "../../../shared/contracts/billing.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import { renderRoutes, testQueryClient } from "../../testing/render.tsx";
import { pricesQuery } from "./billing-api.ts";
import { usePaystackCheckout, type CheckoutCallbacks, type PaystackCheckoutOptions } from "./paystack-checkout.ts";

const prices: Prices = {
  rate: { ghsPerUsd: 15.45, fetchedAt: "2025-01-01T00:00:00.000Z" },
  subscription: { intermediate: { usd: 35, ghs: 541 }, advanced: { usd: 50, ghs: null } },
  waitlist: { intermediate: { usd: 100, ghs: 1545 }, advanced: { usd: 200, ghs: 3090 } },
  cohort: { name: "April 2025", startsOn: "2025-04-01" },
  payments: { enabled: true, testMode: true, inlineScriptUrl: "https://paystack.test/inline.js" },
};

/** Stands in for Paystack's script: the checkout answers at once with `outcome`. */
function paystackAnswers(outcome: "success" | "cancel", calls: string[]) {
  window.PaystackPop = class {
    resumeTransaction(accessCode: string, callbacks: CheckoutCallbacks) {
      calls.push(`checkout ${accessCode}`);
      if (outcome === "success") callbacks.onSuccess({ reference: "REF-1" });
      else callbacks.onCancel();
    }
  };
}

function Buy(props: { options: PaystackCheckoutOptions; plan: PaidPlan }) {
  const checkout = usePaystackCheckout(props.options);
  return (
    <button type="button" onClick={() => checkout.purchase(props.plan)}>
      {checkout.processing ? `Buying ${checkout.processing}` : "Buy"}
    </button>
  );
}

function buy(options: PaystackCheckoutOptions, plan: PaidPlan = "intermediate") {
  renderRoutes(
    [
      { path: "/plans", element: <Buy options={options} plan={plan} /> },
      { path: "/paid", element: <p>paid page</p> },
    ],
    "/plans",
    testQueryClient([[pricesQuery.queryKey, prices]], { neverStale: true }),
  );
  fireEvent.click(screen.getByRole("button", { name: "Buy" }));
}

function options(calls: string[], changes: Partial<PaystackCheckoutOptions> = {}): PaystackCheckoutOptions {
  return {
    priceList: "subscription",
    initialize: (plan) => {
      calls.push(`initialize ${plan}`);
      return Promise.resolve({ reference: "REF-1", accessCode: "ACCESS-1" });
    },
    verify: (reference, plan) => {
      calls.push(`verify ${reference} ${plan}`);
      return Promise.resolve();
    },
    onPaid: () => calls.push("paid"),
    onVerified: () => calls.push("verified"),
    successPath: "/paid",
    onFailure: (failure) => calls.push(`failed at ${failure.step}`),
    ...changes,
  };
}

afterEach(() => {
  cleanup();
  delete window.PaystackPop;
});

describe("usePaystackCheckout", () => {
  it("runs check, transaction, checkout and verification once, in order, then lands on the success path", async () => {
    const calls: string[] = [];
    paystackAnswers("success", calls);
    buy(
      options(calls, {
        check: (plan) => {
          calls.push(`check ${plan}`);
          return Promise.resolve(true);
        },
      }),
    );
    // A second click while the first purchase runs starts nothing.
    fireEvent.click(screen.getByRole("button", { name: "Buying intermediate" }));

    expect(await screen.findByText("paid page")).toBeTruthy();
    expect(calls).toEqual([
      "check intermediate",
      "initialize intermediate",
      "checkout ACCESS-1",
      "paid",
      "verify REF-1 intermediate",
      "verified",
    ]);
  });

  it("stops at the price, asking the server nothing, when the plan has no cedi price in its list", async () => {
    const calls: string[] = [];
    paystackAnswers("success", calls);
    // Advanced has no cedi price in the subscription list above.
    buy(options(calls), "advanced");
    expect(await screen.findByRole("button", { name: "Buy" })).toBeTruthy();
    expect(calls).toEqual(["failed at price"]);
  });

  it("stops before anything shows when start says no, and frees the button when the window closes", async () => {
    const calls: string[] = [];
    paystackAnswers("cancel", calls);
    let allowed = false;
    buy(options(calls, { start: () => allowed }));
    expect(screen.getByRole("button", { name: "Buy" })).toBeTruthy();
    expect(calls).toEqual([]);

    allowed = true;
    fireEvent.click(screen.getByRole("button", { name: "Buy" }));
    expect(screen.getByRole("button", { name: "Buying intermediate" })).toBeTruthy();
    expect(await screen.findByRole("button", { name: "Buy" })).toBeTruthy();
    expect(calls).toEqual(["initialize intermediate", "checkout ACCESS-1"]);
  });
});
