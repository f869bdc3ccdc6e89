// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminUser, UserList } from "../../../../shared/contracts/admin.ts";
import type { MeUser } from "../../../../shared/contracts/session.ts";
import { renderRoutes, testQueryClient } from "../../../testing/render.tsx";
import { notify } from "../../../ui/toast.tsx";
import { meQuery } from "../../../session/session.ts";
import { UsersTab } from "./users-tab.tsx";
import { polyfillDialog } from "../../../testing/dialog.ts";

vi.mock("../../../ui/toast.tsx", () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), paymentIssue: vi.fn() },
}));

const me: MeUser = {
  id: "admin-1",
  email: "kofi@example.com",
  name: "Kofi",
  emailVerified: true,
  provider: "email",
  plan: "admin",
  accessLevel: "Admin",
  tracks: ["beginner", "intermediate", "advanced"],
  isAdmin: true,
  subscriptionEnd: null,
};

function user(overrides: Partial<AdminUser> & Pick<AdminUser, "id" | "email">): AdminUser {
  return {
    plan: "legacyFree",
    provider: "email",
    status: "inactive",
    subscriptionEnd: null,
    queued: null,
    lastActiveAt: null,
    waitlistPaid: false,
    waitlistAdmitted: false,
    createdAt: "2025-08-01T10:00:00.000Z",
    ...overrides,
  };
}

const firstPage: UserList = {
  page: 1,
  pageSize: 10,
  total: 12,
  users: [
    user({ id: "admin-1", email: "kofi@example.com", plan: "admin" }),
    user({ id: "u-ama", email: "ama@example.com", waitlistPaid: true }),
    user({ id: "u-yaw", email: "yaw@example.com", plan: null, provider: null }),
    user({
      id: "u-efua",
      email: "efua@example.com",
      plan: "advanced",
      status: "active",
      subscriptionEnd: "2025-09-01T10:00:00.000Z",
      queued: { plan: "intermediate", end: "2025-10-01T10:00:00.000Z" },
      waitlistPaid: true,
      waitlistAdmitted: true,
    }),
  ],
};

type Call = { method: string; url: URL; body: unknown };
let calls: Call[] = [];
type Answer = { status?: number; body: unknown };
let answer: (call: Call) => Answer;

function json({ status = 200, body }: Answer) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

beforeAll(polyfillDialog);

beforeEach(() => {
  calls = [];
  answer = (call) => {
    if (call.url.pathname === "/api/admin/users") {
      const page = Number(call.url.searchParams.get("page"));
      return { body: page === 2 ? { ...firstPage, page: 2, users: [user({ id: "u-last", email: "last@example.com" })] } : firstPage };
    }
    const target = firstPage.users.find((row) => call.url.pathname.startsWith(`/api/admin/users/${row.id}/`));
    if (target && /\/(plan|admit)$/.test(call.url.pathname)) return { body: { user: target } };
    return { body: { ok: true } };
  };
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const call = {
      method: init.method ?? "GET",
      url: new URL(input, "http://localhost"),
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    return json(answer(call));
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function showUsersTab(path = "/admin?tab=users") {
  return renderRoutes([{ path: "/admin", element: <UsersTab /> }], path, testQueryClient([[meQuery.queryKey, { user: me }]]));
}

const rowOf = (email: string) => {
  const cell = screen.getByText((_, element) => element?.tagName === "TD" && element.textContent?.startsWith(email) === true);
  const row = cell.closest("tr");
  if (!row) throw new Error(`no row for ${email}`);
  return within(row);
};

describe("Users tab (docs/product.md, Admin console)", () => {
  it("shows one page of users with their plan badges, provider, dates and pagination", async () => {
    showUsersTab();
    await screen.findByText("ama@example.com");

    expect(rowOf("ama@example.com").getByText("Free (Beginner)", { selector: ".badge" }).className).toContain("badge-free");
    expect(rowOf("kofi@example.com").getByText("Admin", { selector: ".badge" }).className).toContain("badge-admin");
    expect(rowOf("efua@example.com").getByText("Advanced", { selector: ".badge" }).className).toContain("badge-advanced");
    expect(rowOf("yaw@example.com").getByText("MISSING", { selector: ".badge" }).className).toContain("badge-missing");
    expect(rowOf("yaw@example.com").getByText("Unknown")).toBeTruthy();
    // Paid time queued after the current period is shown with it.
    expect(rowOf("efua@example.com").getByText(/^then Intermediate to /).textContent).toContain("2025");
    expect(rowOf("ama@example.com").getAllByText("N/A")).toHaveLength(2);
    // docs/admin.md, "Learner page": each email opens that learner's page.
    expect(rowOf("ama@example.com").getByRole("link", { name: "ama@example.com" }).getAttribute("href")).toBe("/admin/users/u-ama");
    expect(screen.getByText("Page 1 of 2")).toBeTruthy();
    expect(calls[0]?.url.search).toBe("?page=1&sort=newest");
  });

  it("offers Admit only to users who paid for the waitlist and are not admitted", async () => {
    showUsersTab();
    await screen.findByText("ama@example.com");
    const admit = (email: string) => rowOf(email).getByRole<HTMLButtonElement>("button", { name: "Admit from Waitlist" });
    expect(admit("ama@example.com").disabled).toBe(false);
    expect(admit("efua@example.com").disabled).toBe(true);
    expect(admit("yaw@example.com").disabled).toBe(true);
  });

  it("keeps the page in the address, next to the tab", async () => {
    const router = showUsersTab();
    await screen.findByText("ama@example.com");
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await screen.findByText("last@example.com");
    expect(router.state.location.search).toBe("?tab=users&page=2");
    expect(screen.getByText("Page 2 of 2")).toBeTruthy();
  });

  it("searches by email once typing pauses, from page 1", async () => {
    const router = showUsersTab("/admin?tab=users&page=2&sort=email");
    await screen.findByText("last@example.com");
    fireEvent.change(screen.getByLabelText("Search by email"), { target: { value: " ama " } });
    await waitFor(() => expect(router.state.location.search).toBe("?tab=users&sort=email&q=ama"));
    await waitFor(() => expect(calls.at(-1)?.url.search).toBe("?page=1&sort=email&search=ama"));
  });

  it("changes a plan at once and says so with the plan id", async () => {
    showUsersTab();
    await screen.findByText("ama@example.com");
    fireEvent.change(screen.getByLabelText("Plan for ama@example.com"), { target: { value: "intermediate" } });
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Updated user subscription to intermediate"));
    const put = calls.find((call) => call.method === "PUT");
    expect(put?.url.pathname).toBe("/api/admin/users/u-ama/plan");
    expect(put?.body).toEqual({ plan: "intermediate" });
  });

  it("shows the server's reason when a plan change is refused", async () => {
    const list = answer;
    answer = (call) =>
      call.method === "PUT"
        ? { status: 409, body: { error: { code: "CONFLICT", message: "You cannot change your own plan." } } }
        : list(call);
    showUsersTab();
    await screen.findByText("ama@example.com");
    fireEvent.change(screen.getByLabelText("Plan for ama@example.com"), { target: { value: "advanced" } });
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith("You cannot change your own plan."));
  });

  it("does not let the admin change their own plan", async () => {
    showUsersTab();
    await screen.findByText("ama@example.com");
    expect(screen.getByLabelText<HTMLSelectElement>("Plan for kofi@example.com").disabled).toBe(true);
  });

  it("says No users match. when a search finds nobody", async () => {
    answer = () => ({ body: { page: 1, pageSize: 10, total: 0, users: [] } });
    showUsersTab("/admin?tab=users&q=nobody");
    expect(await screen.findByText("No users match.")).toBeTruthy();
  });

  it("reports how many users the Fix tool repaired", async () => {
    const list = answer;
    answer = (call) => (call.method === "POST" ? { body: { fixed: 3 } } : list(call));
    showUsersTab();
    await screen.findByText("ama@example.com");
    fireEvent.click(screen.getByRole("button", { name: "Fix Missing Subscription Plans" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Fixed 3 users missing subscriptionPlan field."));
  });

  it("exports the CSV as a download in the admin's time zone", async () => {
    showUsersTab();
    const link = await screen.findByRole<HTMLAnchorElement>("link", { name: "Export as CSV" });
    expect(link.getAttribute("download")).toBe("users.csv");
    const href = new URL(link.href);
    expect(href.pathname).toBe("/api/admin/users.csv");
    expect(href.searchParams.get("tz")).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe("Edit Progress modal", () => {
  const quiz = { title: "Beginner Program Quiz", questions: 3, correct: 1, passMark: 3, passed: false };
  const progress = {
    tracks: [
      {
        track: "beginner",
        title: "Beginner Program",
        modules: [
          { id: "m1", title: "Welcome to the markets", watched: true },
          { id: "m2", title: "Section 2: Reading candlestick charts", watched: false },
        ],
        quiz,
      },
      { track: "intermediate", title: "Intermediate Program", modules: [{ id: "i1", title: "Chart patterns", watched: false }], quiz: null },
      { track: "advanced", title: "Advanced Program", modules: [], quiz: null },
    ],
  };

  async function openFor(email: string) {
    showUsersTab();
    await screen.findByText(email);
    fireEvent.click(rowOf(email).getByRole("button", { name: "Edit Progress" }));
    return screen.getByRole("dialog", { name: `Edit Progress for ${email}` });
  }

  it("shows each program's videos by title with a checkbox and its quiz, and saves the programs changed", async () => {
    const list = answer;
    answer = (call) => (call.url.pathname.endsWith("/progress") && call.method === "GET" ? { body: progress } : list(call));
    const dialog = within(await openFor("ama@example.com"));
    expect(dialog.getByText("Loading...")).toBeTruthy();

    const beginner = within(await dialog.findByRole("group", { name: "Beginner Program" }));
    const first = beginner.getByRole<HTMLInputElement>("checkbox", { name: "Section 1: Welcome to the markets" });
    expect(first.checked).toBe(true);
    // A title typed with its own number shows one number only.
    const second = beginner.getByRole<HTMLInputElement>("checkbox", { name: "Section 2: Reading candlestick charts" });
    expect(second.checked).toBe(false);
    expect(beginner.getByText("Quiz: Beginner Program Quiz, not passed (1 of 3 answered correctly; 3 needed to pass).")).toBeTruthy();
    expect(dialog.getByText("This program has no videos yet.")).toBeTruthy();
    expect(dialog.queryByRole("textbox")).toBeNull();

    fireEvent.click(second);
    fireEvent.click(dialog.getByRole("button", { name: "Save" }));

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("User progress updated!"));
    const put = calls.find((call) => call.method === "PUT");
    expect(put?.url.pathname).toBe("/api/admin/users/u-ama/progress");
    expect(put?.body).toEqual({ progress: { beginner: { m1: true, m2: true } } });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("closes without saving when nothing changed", async () => {
    const list = answer;
    answer = (call) => (call.url.pathname.endsWith("/progress") && call.method === "GET" ? { body: progress } : list(call));
    const dialog = within(await openFor("ama@example.com"));
    await dialog.findByRole("group", { name: "Beginner Program" });
    fireEvent.click(dialog.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.some((call) => call.method === "PUT")).toBe(false);
  });

  it("says when the progress cannot be loaded", async () => {
    const list = answer;
    answer = (call) =>
      call.url.pathname.endsWith("/progress") ? { status: 500, body: { error: { code: "INTERNAL", message: "x" } } } : list(call);
    const dialog = within(await openFor("ama@example.com"));
    expect(await dialog.findByText("Failed to load user progress")).toBeTruthy();
  });

  it("keeps the modal open with the server's reason when it refuses, and no toast repeats it", async () => {
    const reason = "The videos of the Beginner Program have changed since this form was opened. Close it and open it again.";
    const list = answer;
    answer = (call) => {
      if (!call.url.pathname.endsWith("/progress")) return list(call);
      return call.method === "GET" ? { body: progress } : { status: 400, body: { error: { code: "VALIDATION", message: reason } } };
    };
    const dialog = within(await openFor("ama@example.com"));
    const beginner = within(await dialog.findByRole("group", { name: "Beginner Program" }));
    fireEvent.click(beginner.getByRole("checkbox", { name: "Section 1: Welcome to the markets" }));
    fireEvent.click(dialog.getByRole("button", { name: "Save" }));
    expect(await dialog.findByText(reason)).toBeTruthy();
    expect(notify.error).not.toHaveBeenCalled();
  });
});
