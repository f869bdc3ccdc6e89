// @vitest-environment jsdom
// The learner's payment history and receipt page, as the server's answers make them read.
import { cleanup, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OwnPayment, Receipt } from "../../../shared/contracts/billing.ts";
import { renderRoutes } from "../../testing/render.tsx";
import { PaymentHistory } from "./payment-history.tsx";
import { ReceiptPage } from "./receipt-page.tsx";

let answers: Record<string, { status: number; body: unknown }> = {};

beforeEach(() => {
  vi.stubGlobal("fetch", async (input: string) => {
    const url = new URL(input, "http://localhost");
    const answer = answers[url.pathname] ?? { status: 404, body: { error: { code: "NOT_FOUND", message: "Not found." } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  answers = {};
});

function show(element: ReactNode, path: string, pattern = "*") {
  renderRoutes([{ path: pattern, element }], path);
}

const PAID: OwnPayment = {
  reference: "LTF-INTERMEDIATE-1754300000000",
  kind: "subscription",
  plan: "intermediate",
  amountMinor: 54_100,
  refundedMinor: 0,
  currency: "GHS",
  status: "success",
  createdAt: "2025-08-04T09:30:00.000Z",
  paidAt: "2025-08-04T09:31:00.000Z",
  hasReceipt: true,
};

function rowWith(text: string) {
  const row = screen.getByText(text).closest("tr");
  if (!row) throw new Error(`no row with ${text}`);
  return within(row);
}

describe("PaymentHistory", () => {
  it("says what each payment bought, for how much, its status, and links the receipts of paid ones", async () => {
    answers["/api/payments"] = {
      status: 200,
      body: {
        page: 1,
        pageSize: 10,
        total: 3,
        payments: [
          { ...PAID, reference: "LTF-WAITLIST-ADVANCED-3", kind: "waitlist", plan: "advanced", status: "abandoned", paidAt: null, hasReceipt: false },
          { ...PAID, reference: "LTF-INTERMEDIATE-2", status: "refunded", refundedMinor: 54_100 },
          PAID,
        ],
      },
    };
    show(<PaymentHistory />, "/subscription");

    await screen.findByText(PAID.reference);
    const paid = rowWith(PAID.reference);
    expect(paid.getByText("1 month of the Intermediate plan")).toBeTruthy();
    expect(paid.getByText("GH₵ 541.00")).toBeTruthy();
    expect(paid.getByText("Paid").className).toContain("payment-status-success");
    expect(paid.getByRole("link", { name: `Receipt for ${PAID.reference}` }).getAttribute("href")).toBe(`/subscription/receipts/${PAID.reference}`);

    const refunded = rowWith("LTF-INTERMEDIATE-2");
    expect(refunded.getByText("Refunded")).toBeTruthy();
    expect(refunded.getByText("GH₵ 541.00 refunded")).toBeTruthy();

    const abandoned = rowWith("LTF-WAITLIST-ADVANCED-3");
    expect(abandoned.getByText("Waitlist place, Advanced track (first month)")).toBeTruthy();
    expect(abandoned.getByText("Not completed")).toBeTruthy();
    expect(abandoned.queryByRole("link")).toBeNull();
  });

  it("says when there are no payments yet", async () => {
    answers["/api/payments"] = { status: 200, body: { page: 1, pageSize: 10, total: 0, payments: [] } };
    show(<PaymentHistory />, "/subscription");
    expect(await screen.findByText("You have not made any payments yet.")).toBeTruthy();
  });
});

describe("ReceiptPage", () => {
  const pattern = "/subscription/receipts/:reference";

  it("shows the receipt with the business, the month, the dollar price, the method, the refunds and what is left", async () => {
    const receipt: Receipt = {
      ...PAID,
      status: "success",
      refundedMinor: 10_000,
      business: { name: "Trading Academy Ltd", address: "12 Liberation Road, Accra", taxNumber: "C0012345678" },
      name: "Ama Mensah",
      email: "ama@example.com",
      priceUsdCents: 3500,
      exchangeRate: "15.450000",
      method: { channel: "mobile_money", brand: "MTN", number: "055***4987" },
      periodStart: "2025-08-04T10:00:00.000Z",
      periodEnd: "2025-09-04T10:00:00.000Z",
      cohort: null,
      refunds: [{ amountMinor: 10_000, status: "pending", createdAt: "2025-08-05T10:00:00.000Z", processedAt: null }],
    };
    answers[`/api/payments/${PAID.reference}`] = { status: 200, body: receipt };
    show(<ReceiptPage />, `/subscription/receipts/${PAID.reference}`, pattern);

    const article = await screen.findByRole("article", { name: "Payment receipt" });
    const card = within(article);
    expect(card.getByText(PAID.reference)).toBeTruthy();
    expect(card.getByText("Ama Mensah")).toBeTruthy();
    expect(card.getByText("Trading Academy Ltd")).toBeTruthy();
    expect(card.getByText("12 Liberation Road, Accra")).toBeTruthy();
    expect(card.getByText("Tax number: C0012345678")).toBeTruthy();
    expect(card.getByText("4 August 2025 to 4 September 2025")).toBeTruthy();
    expect(card.getByText("MTN Mobile Money 055***4987")).toBeTruthy();
    expect(card.getByText("US$ 35.00 at 15.45 cedis per dollar")).toBeTruthy();
    expect(card.getByText("GH₵ 100.00 refunded")).toBeTruthy();
    expect(card.getByText("Being processed by Paystack")).toBeTruthy();
    expect(card.getByText("−GH₵ 100.00")).toBeTruthy();
    expect(within(card.getByText("Total after refunds").closest("tr") as HTMLElement).getByText("GH₵ 441.00")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Print receipt" })).toBeTruthy();
  });

  it("says a receipt that is not the learner's cannot be found", async () => {
    answers["/api/payments/LTF-OTHER"] = {
      status: 404,
      body: { error: { code: "RECEIPT_NOT_FOUND", message: "Receipt not found." } },
    };
    show(<ReceiptPage />, "/subscription/receipts/LTF-OTHER", pattern);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Receipt not found. It may belong to another account, or the payment was not completed.",
    );
    expect(screen.queryByRole("button", { name: "Print receipt" })).toBeNull();
  });
});
