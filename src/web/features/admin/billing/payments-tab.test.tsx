// @vitest-environment jsdom
// The Payments tab's filters (in the address, sent to the server) and its refund confirmation.
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminPayment } from "../../../../shared/contracts/admin.ts";
import { polyfillDialog } from "../../../testing/dialog.ts";
import { renderRoutes, rowWith } from "../../../testing/render.tsx";
import { notify } from "../../../ui/toast.tsx";
import { parseCedis, PaymentsTab } from "./payments-tab.tsx";

vi.mock("../../../ui/toast.tsx", () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), paymentIssue: vi.fn() },
}));

type Call = { method: string; url: URL; body: unknown };
let calls: Call[] = [];
let refundAnswer: { status: number; body: unknown };

const PAID: AdminPayment = {
  id: "0b6c1c3e-8f2a-4c1e-9a7b-2f3c4d5e6f70",
  userId: "u-ama",
  userEmail: "ama@example.com",
  userName: "Ama Mensah",
  kind: "subscription",
  plan: "intermediate",
  amountMinor: 54_100,
  refundedMinor: 0,
  currency: "GHS",
  status: "success",
  reference: "LTF-INTERMEDIATE-1754300000000",
  createdAt: "2025-08-04T09:30:00.000Z",
};
const REFUNDED: AdminPayment = { ...PAID, id: "p2", status: "refunded", refundedMinor: 54_100, reference: "LTF-INTERMEDIATE-1754300000001" };

beforeAll(polyfillDialog);

beforeEach(() => {
  calls = [];
  refundAnswer = {
    status: 200,
    body: {
      payment: { id: PAID.id, amountMinor: 54_100, refundedMinor: 54_100, status: "refunded" },
      refund: { id: "r1", amountMinor: 54_100, status: "pending" },
    },
  };
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const call = { method: init.method ?? "GET", url: new URL(input, "http://localhost"), body: init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const answer =
      call.method === "POST"
        ? refundAnswer
        : { status: 200, body: { page: 1, pageSize: 20, total: 2, payments: [PAID, REFUNDED] } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function show(path: string) {
  return renderRoutes([{ path: "/admin", element: <PaymentsTab /> }], path);
}

describe("Payments tab filters", () => {
  it("sends the status and the admin's days to the server, and keeps them in the address", async () => {
    const router = show("/admin?tab=payments&status=abandoned&from=2025-08-01&to=2025-08-31");
    await screen.findByText(PAID.reference);
    const query = calls[0]?.url.searchParams;
    expect(query?.get("status")).toBe("abandoned");
    expect(query?.get("from")).toBe(new Date(2025, 7, 1).toISOString());
    // The last day is included: up to the start of the next one.
    expect(query?.get("to")).toBe(new Date(2025, 8, 1).toISOString());
    expect(screen.getByLabelText<HTMLSelectElement>("Status").value).toBe("abandoned");

    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "refunded" } });
    await waitFor(() => expect(router.state.location.search).toBe("?tab=payments&status=refunded&from=2025-08-01&to=2025-08-31"));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get("status")).toBe("refunded"));

    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=payments"));
    await waitFor(() => expect([...(calls.at(-1)?.url.searchParams.keys() ?? [])]).toEqual(["page"]));
  });

  it("says when the days are the wrong way round", async () => {
    show("/admin?tab=payments&from=2025-08-31&to=2025-08-01");
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "The start date must be on or before the end date.");
  });

  it("shows a refunded payment as refunded, with the amount, and offers no second refund", async () => {
    show("/admin?tab=payments");
    await screen.findByText(REFUNDED.reference);
    const row = rowWith(REFUNDED.reference);
    expect(row.getByText("Refunded").className).toContain("badge-refunded");
    expect(row.getByText("₵541.00 refunded")).toBeTruthy();
    expect(row.queryByRole("button", { name: /Refund/ })).toBeNull();
  });
});

describe("Refunding from the Payments tab", () => {
  it("confirms with the amount and the learner, then refunds", async () => {
    show("/admin?tab=payments");
    await screen.findByText(PAID.reference);
    fireEvent.click(rowWith(PAID.reference).getByRole("button", { name: `Refund ${PAID.reference}` }));

    const dialog = await screen.findByRole("dialog", { name: "Refund payment" });
    expect(within(dialog).getByText(/^Refund ₵541\.00 \(GHS\) to Ama Mensah \(ama@example\.com\) for payment LTF-INTERMEDIATE-1754300000000\?/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Reason (optional, for the audit log)"), { target: { value: "Within 7 days" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Refund ₵541.00" }));

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Refunded ₵541.00 to Ama Mensah (ama@example.com)."));
    const post = calls.find((call) => call.method === "POST");
    expect(post?.url.pathname).toBe(`/api/admin/payments/${PAID.id}/refund`);
    expect(post?.body).toEqual({ amountMinor: 54_100, reason: "Within 7 days" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("refunds part of a payment, and will not refund more than is left", async () => {
    show("/admin?tab=payments");
    await screen.findByText(PAID.reference);
    fireEvent.click(rowWith(PAID.reference).getByRole("button", { name: `Refund ${PAID.reference}` }));
    const dialog = await screen.findByRole("dialog");
    const amount = within(dialog).getByLabelText("Amount to refund (GH₵)");

    fireEvent.change(amount, { target: { value: "600" } });
    expect(within(dialog).getByRole("alert").textContent).toBe("Enter an amount in cedis, more than 0 and at most ₵541.00.");
    expect(within(dialog).getByRole<HTMLButtonElement>("button", { name: /^Refund/ }).disabled).toBe(true);

    fireEvent.change(amount, { target: { value: "100.50" } });
    expect(within(dialog).getByText(/^Refund ₵100\.50 \(GHS\) to Ama Mensah/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Refund ₵100.50" }));
    await waitFor(() => expect(calls.find((call) => call.method === "POST")?.body).toEqual({ amountMinor: 10_050 }));
  });

  it("keeps the dialog open with Paystack's refusal", async () => {
    refundAnswer = {
      status: 409,
      body: { error: { code: "REFUND_REFUSED", message: "Paystack refused the refund: Refunds are paused. Nothing was changed." } },
    };
    show("/admin?tab=payments");
    await screen.findByText(PAID.reference);
    fireEvent.click(rowWith(PAID.reference).getByRole("button", { name: `Refund ${PAID.reference}` }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Refund ₵541.00" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Paystack refused the refund: Refunds are paused. Nothing was changed.");
    expect(notify.success).not.toHaveBeenCalled();
  });
});

describe("parseCedis", () => {
  it.each([
    ["541", 54_100],
    ["541.5", 54_150],
    ["1,541.05", 154_105],
    [" 0.01 ", 1],
  ])("reads %j", (text, pesewas) => {
    expect(parseCedis(text)).toBe(pesewas);
  });

  it.each(["", "abc", "1.234", "-5", "1e3"])("refuses %j", (text) => {
    expect(parseCedis(text)).toBeNull();
  });
});
