// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderRoutes, rowWith } from "../../../testing/render.tsx";
import { notify } from "../../../ui/toast.tsx";
import { AuditTab } from "./audit-tab.tsx";
import { MessagesTab } from "./messages-tab.tsx";
import { PaymentsTab } from "../billing/payments-tab.tsx";
import { WaitlistTab } from "../cohorts/waitlist-tab.tsx";

vi.mock("../../../ui/toast.tsx", () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), paymentIssue: vi.fn() },
}));

type Call = { method: string; url: URL };
let calls: Call[] = [];
let answers: Record<string, unknown> = {};

beforeEach(() => {
  calls = [];
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const call = { method: init.method ?? "GET", url: new URL(input, "http://localhost") };
    calls.push(call);
    const body = answers[`${call.method} ${call.url.pathname}`];
    return new Response(JSON.stringify(body ?? { error: { code: "NOT_FOUND", message: "Not found." } }), {
      status: body ? 200 : 404,
      headers: { "content-type": "application/json" },
    });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  answers = {};
});

function show(tab: ReactNode, path: string) {
  return renderRoutes([{ path: "/admin", element: tab }], path);
}

const page = { page: 1, pageSize: 20, total: 2 };

describe("Payments tab", () => {
  it("shows amounts in cedis with two decimals, success green and an abandoned checkout neutral", async () => {
    answers["GET /api/admin/payments"] = {
      ...page,
      payments: [
        {
          id: "p1",
          userId: "u-ama",
          userEmail: "ama@example.com",
          userName: "Ama Mensah",
          kind: "subscription",
          plan: "advanced",
          amountMinor: 54000,
          refundedMinor: 0,
          currency: "GHS",
          status: "success",
          reference: "LTF-ADVANCED-1754300000000",
          createdAt: "2025-08-04T09:30:00.000Z",
        },
        {
          id: "p2",
          // The account was deleted: the payment is kept, without a learner to link to.
          userId: null,
          userEmail: "yaw@example.com",
          userName: "",
          kind: "waitlist",
          plan: "intermediate",
          amountMinor: 123456,
          refundedMinor: 0,
          currency: "GHS",
          status: "abandoned",
          reference: "LTF-WAITLIST-INTERMEDIATE-1754300000001",
          createdAt: "2025-08-03T09:30:00.000Z",
        },
      ],
    };
    show(<PaymentsTab />, "/admin?tab=payments");

    await screen.findByText("LTF-ADVANCED-1754300000000");
    const first = rowWith("LTF-ADVANCED-1754300000000");
    expect(first.getByText("₵540.00")).toBeTruthy();
    expect(first.getByText("Success").className).toContain("badge-success");
    const second = rowWith("LTF-WAITLIST-INTERMEDIATE-1754300000001");
    expect(second.getByText("₵1,234.56")).toBeTruthy();
    expect(second.getByText("Abandoned").className).toContain("badge-neutral");
    expect(second.getByText("Abandoned").className).not.toContain("badge-failed");
    expect(screen.getByText("Page 1 of 1")).toBeTruthy();
    // docs/admin.md, "Learner page": the email opens the learner's page, while there is one.
    expect(first.getByRole("link", { name: "ama@example.com" }).getAttribute("href")).toBe("/admin/users/u-ama");
    expect(second.queryByRole("link")).toBeNull();
  });

  it("says when there are no payments", async () => {
    answers["GET /api/admin/payments"] = { ...page, total: 0, payments: [] };
    show(<PaymentsTab />, "/admin?tab=payments");
    expect(await screen.findByText("No payments yet.")).toBeTruthy();
  });
});

describe("Waitlist tab", () => {
  const entry = {
    plan: "advanced",
    cohort: "October 2025",
    paid: true,
    createdAt: "2025-08-01T10:00:00.000Z",
  };

  it("admits a paid learner who is not admitted yet, and not one who is", async () => {
    answers["GET /api/admin/waitlist"] = {
      ...page,
      entries: [
        { ...entry, userId: "u-ama", email: "ama@example.com", admitted: false, admittedAt: null },
        { ...entry, userId: "u-efua", email: "efua@example.com", admitted: true, admittedAt: "2025-08-02T10:00:00.000Z" },
      ],
    };
    answers["POST /api/admin/users/u-ama/admit"] = {
      user: {
        id: "u-ama",
        email: "ama@example.com",
        plan: "advanced",
        provider: "email",
        status: "active",
        subscriptionEnd: "2025-09-02T10:00:00.000Z",
        queued: null,
        lastActiveAt: null,
        waitlistPaid: true,
        waitlistAdmitted: true,
        createdAt: "2025-08-01T10:00:00.000Z",
      },
    };
    show(<WaitlistTab />, "/admin?tab=waitlist");

    await screen.findByText("ama@example.com");
    expect(rowWith("efua@example.com").queryByRole("button", { name: "Admit from Waitlist" })).toBeNull();
    expect(rowWith("efua@example.com").getByText(/^Yes \(/)).toBeTruthy();
    const ama = rowWith("ama@example.com");
    expect(ama.getByText("advanced")).toBeTruthy();
    expect(ama.getByText("October 2025")).toBeTruthy();

    fireEvent.click(ama.getByRole("button", { name: "Admit from Waitlist" }));
    await waitFor(() =>
      expect(notify.success).toHaveBeenCalledWith("Admitted ama@example.com from waitlist and activated subscription."),
    );
  });

  it("shows the server's reason when an admit is refused", async () => {
    answers["GET /api/admin/waitlist"] = {
      ...page,
      entries: [{ ...entry, userId: "u-ama", email: "ama@example.com", admitted: false, admittedAt: null }],
    };
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const conflict = init.method === "POST";
      return new Response(
        JSON.stringify(
          conflict
            ? { error: { code: "CONFLICT", message: "This user has already been admitted." } }
            : answers["GET /api/admin/waitlist"],
        ),
        { status: conflict ? 409 : 200, headers: { "content-type": "application/json" } },
      );
    });
    show(<WaitlistTab />, "/admin?tab=waitlist");
    fireEvent.click(await screen.findByRole("button", { name: "Admit from Waitlist" }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith("This user has already been admitted."));
  });
});

describe("Audit tab", () => {
  it("names the system when no admin made the change, and filters by email in the address", async () => {
    answers["GET /api/admin/audit"] = {
      ...page,
      entries: [
        {
          id: 2,
          action: "plan.set",
          reason: "admin",
          actorId: "u-kofi",
          actorEmail: "kofi@example.com",
          subjectId: "u-ama",
          subjectEmail: "ama@example.com",
          changes: { from: { plan: "legacyFree" }, to: { plan: "intermediate" } },
          createdAt: "2025-08-04T09:30:00.000Z",
        },
        {
          id: 1,
          action: "payment.credited",
          reason: "payment LTF-ADVANCED-1",
          actorId: null,
          actorEmail: null,
          subjectId: "u-yaw",
          subjectEmail: "yaw@example.com",
          changes: { plan: "advanced" },
          createdAt: "2025-08-03T09:30:00.000Z",
        },
      ],
    };
    const router = show(<AuditTab />, "/admin?tab=audit");

    await screen.findByText("payment.credited");
    expect(rowWith("payment.credited").getByText("System")).toBeTruthy();
    // docs/admin.md, "Learner page": who made the change and whom it was about, each a link to their page.
    expect(rowWith("plan.set").getByRole("link", { name: "kofi@example.com" }).getAttribute("href")).toBe("/admin/users/u-kofi");
    expect(rowWith("plan.set").getByRole("link", { name: "ama@example.com" }).getAttribute("href")).toBe("/admin/users/u-ama");
    // The changes in words, one line per field (docs/admin.md): not the stored JSON.
    expect(rowWith("plan.set").getByRole("listitem").textContent).toBe("plan: legacyFree → intermediate");
    expect(rowWith("payment.credited").getByRole("listitem").textContent).toBe("plan: advanced");

    fireEvent.change(screen.getByLabelText("Filter by user email"), { target: { value: "ama@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Filter" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=audit&user=ama%40example.com"));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get("user")).toBe("ama@example.com"));

    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=audit"));
    expect(screen.getByLabelText<HTMLInputElement>("Filter by user email").value).toBe("");
  });
});

describe("Messages tab", () => {
  it("links the sender's email and keeps the message's line breaks", async () => {
    answers["GET /api/admin/messages"] = {
      ...page,
      total: 1,
      messages: [
        {
          id: "m1",
          name: "Esi",
          email: "esi@example.com",
          message: "Hello,\nWhen does the next cohort start?",
          createdAt: "2025-08-04T09:30:00.000Z",
        },
      ],
    };
    show(<MessagesTab />, "/admin?tab=messages");

    const link = await screen.findByRole<HTMLAnchorElement>("link", { name: "esi@example.com" });
    expect(link.getAttribute("href")).toBe("mailto:esi@example.com");
    const message = screen.getByText(/When does the next cohort start\?/);
    expect(message.textContent).toBe("Hello,\nWhen does the next cohort start?");
    expect(message.className).toContain("cell-message");
  });

  it("lists the emails not sent, to whom, about what, how often and why", async () => {
    answers["GET /api/admin/messages"] = { ...page, total: 0, messages: [] };
    answers["GET /api/admin/mail/unsent"] = {
      total: 2,
      messages: [
        {
          id: 2,
          to: "kofi@example.com",
          subject: "Reset your Trading Academy password",
          status: "failing",
          attempts: 3,
          lastError: "connect ECONNREFUSED 10.0.0.5:587",
          createdAt: "2025-08-04T09:30:00.000Z",
        },
        { id: 1, to: "ama@example.com", subject: "Verify your email", status: "failed", attempts: 10, lastError: "Greeting never received", createdAt: "2025-08-03T09:30:00.000Z" },
      ],
    };
    show(<MessagesTab />, "/admin?tab=messages");

    expect(await screen.findByRole("heading", { name: "Email not sent" })).toBeTruthy();
    await screen.findByText("Reset your Trading Academy password");
    const failing = rowWith("Reset your Trading Academy password");
    expect(failing.getByText("kofi@example.com")).toBeTruthy();
    expect(failing.getByText("3")).toBeTruthy();
    expect(failing.getByText("Trying again")).toBeTruthy();
    expect(failing.getByText("connect ECONNREFUSED 10.0.0.5:587")).toBeTruthy();
    const failed = rowWith("Verify your email");
    expect(failed.getByText("ama@example.com")).toBeTruthy();
    expect(failed.getByText("Given up")).toBeTruthy();
  });

  it("says so when every email has gone through", async () => {
    answers["GET /api/admin/messages"] = { ...page, total: 0, messages: [] };
    answers["GET /api/admin/mail/unsent"] = { total: 0, messages: [] };
    show(<MessagesTab />, "/admin?tab=messages");
    expect(await screen.findByText("Every email has gone through.")).toBeTruthy();
  });
});
