// The tab counts and the read-only tabs (waitlist, payments, audit log, contact messages): what
// an administrator sees, in which order, a page at a time.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORDS_PAGE_SIZE } from "../../../shared/contracts/admin.ts";
import { auditLog, contacts, payments, users } from "../../db/schema.ts";
import { placeOnWaitlist } from "../../testing/waitlist.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(54);

const COUNT = 25;
const BASE = new Date("2025-05-01T09:00:00.000Z");
const at = (i: number) => new Date(BASE.getTime() + i * 60_000);
const numbers = Array.from({ length: COUNT }, (_, index) => index + 1);
const newestFirst = [...numbers].reverse();
const pad = (n: number) => String(n).padStart(2, "0");
const PAYMENT_STATUSES = ["pending", "success", "failed", "abandoned", "reversed"] as const;

describe("the admin records", () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await createTestUsers(t, nextIp, { admin: { plan: "admin" } }))("admin");
    const { db } = t.database;

    // 25 waitlist places; every 4th admitted; the last one's payment is not on the user (paid false).
    await db.insert(users).values(numbers.map((i) => ({ id: `wl-${pad(i)}`, email: `waiter${pad(i)}@example.com`, waitlistPaid: i !== COUNT })));
    await placeOnWaitlist(
      db,
      numbers.map((i) => ({
        userId: `wl-${pad(i)}`,
        plan: i % 2 === 0 ? ("advanced" as const) : ("intermediate" as const),
        cohort: "July 2025",
        admitted: i % 4 === 0,
        admittedAt: i % 4 === 0 ? at(100 + i) : null,
        createdAt: at(i),
      })),
    );

    await db.insert(payments).values(
      numbers.map((i) => ({
        reference: `LTF-INTERMEDIATE-${1_700_000_000_000 + i}`,
        userId: "wl-01",
        userEmail: "waiter01@example.com",
        kind: i % 2 === 0 ? ("waitlist" as const) : ("subscription" as const),
        plan: "intermediate" as const,
        amountMinor: 54_100 + i,
        priceUsdCents: 3500,
        exchangeRate: "15.450000",
        status: PAYMENT_STATUSES[i % 5],
        createdAt: at(i),
      })),
    );

    // The audit log: odd entries about one user, even ones about another; every 3rd by the admin.
    await db.insert(users).values([
      { id: "audit-subject", email: "Audit.Subject@Example.com" },
      { id: "audit-other", email: "audit.other@example.com" },
      { id: "audit-gone", email: "gone@example.com" },
    ]);
    await db.insert(auditLog).values(
      numbers.map((i) => ({
        actorId: i % 3 === 0 ? admin.id : null,
        subjectUserId: i % 2 === 1 ? "audit-subject" : "audit-other",
        action: `test.${i}`,
        reason: i % 3 === 0 ? "admin" : `payment LTF-${i}`,
        changes: { n: i },
        createdAt: at(i),
      })),
    );
    await db.insert(auditLog).values({ actorId: admin.id, subjectUserId: "audit-gone", action: "test.gone", reason: "admin", createdAt: at(COUNT + 1) });
    await db.delete(users).where(eq(users.id, "audit-gone"));

    await db.insert(contacts).values(
      numbers.map((i) => ({ name: `Sender ${i}`, email: `sender${i}@example.com`, message: `Question ${i}`, createdAt: at(i) })),
    );
  });
  afterAll(() => t.close());

  async function get<T>(url: string): Promise<T> {
    const response = await t.app.inject({ url, headers: { cookie: admin.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  }

  it("counts programs, users, paid waitlist users, payments, audit entries, messages, questions and mentorship requests", async () => {
    expect(await get("/api/admin/summary")).toEqual({
      programs: 3,
      users: 1 + COUNT + 2,
      waitlist: COUNT - 1,
      payments: COUNT,
      audit: COUNT + 1,
      messages: COUNT,
      questions: 0,
      mentorship: 0,
    });
    await t.database.db.insert(contacts).values({ name: "Late", email: "late@example.com", message: "Hello?" });
    expect(await get("/api/admin/summary")).toMatchObject({ messages: COUNT + 1 });
    await t.database.db.delete(contacts).where(eq(contacts.email, "late@example.com"));
  });

  describe("waitlist", () => {
    type Entry = { userId: string; email: string; plan: string; cohort: string; paid: boolean; admitted: boolean; admittedAt: string | null; createdAt: string };
    type Listing = { page: number; pageSize: number; total: number; entries: Entry[] };

    it("lists the places not yet admitted first, then the newest, 20 a page", async () => {
      const waiting = newestFirst.filter((i) => i % 4 !== 0);
      const admitted = newestFirst.filter((i) => i % 4 === 0);
      const order = [...waiting, ...admitted].map((i) => `wl-${pad(i)}`);

      const first = await get<Listing>("/api/admin/waitlist");
      expect(first).toMatchObject({ page: 1, pageSize: RECORDS_PAGE_SIZE, total: COUNT });
      expect(first.entries.map((entry) => entry.userId)).toEqual(order.slice(0, 20));
      const second = await get<Listing>("/api/admin/waitlist?page=2");
      expect(second.entries.map((entry) => entry.userId)).toEqual(order.slice(20));
      expect(await get("/api/admin/waitlist?page=3")).toEqual({ page: 3, pageSize: RECORDS_PAGE_SIZE, total: COUNT, entries: [] });
    });

    it("shows who, which track and cohort, paid and admitted", async () => {
      const { entries } = await get<Listing>("/api/admin/waitlist");
      expect(entries.find((entry) => entry.userId === "wl-24")).toEqual({
        userId: "wl-24",
        email: "waiter24@example.com",
        plan: "advanced",
        cohort: "July 2025",
        paid: true,
        admitted: true,
        admittedAt: at(124).toISOString(),
        createdAt: at(24).toISOString(),
      });
      expect(entries[0]).toMatchObject({ userId: "wl-25", plan: "intermediate", paid: false, admitted: false, admittedAt: null });
    });
  });

  describe("payments", () => {
    type Listing = { total: number; payments: { reference: string }[] };

    it("lists the newest first, 20 a page, as the table shows them", async () => {
      const references = newestFirst.map((i) => `LTF-INTERMEDIATE-${1_700_000_000_000 + i}`);
      const first = await get<Listing>("/api/admin/payments");
      expect(first).toMatchObject({ page: 1, pageSize: RECORDS_PAGE_SIZE, total: COUNT });
      expect(first.payments.map((payment) => payment.reference)).toEqual(references.slice(0, 20));
      const second = await get<Listing>("/api/admin/payments?page=2");
      expect(second.payments.map((payment) => payment.reference)).toEqual(references.slice(20));
      expect(first.payments[0]).toEqual({
        id: expect.any(String),
        userId: "wl-01",
        userEmail: "waiter01@example.com",
        userName: "",
        kind: "subscription",
        plan: "intermediate",
        amountMinor: 54_125,
        refundedMinor: 0,
        currency: "GHS",
        status: "pending",
        reference: references[0],
        createdAt: at(COUNT).toISOString(),
      });
    });
  });

  describe("audit log", () => {
    type Entry = { id: number; action: string; reason: string; actorEmail: string | null; subjectEmail: string | null; changes: unknown; createdAt: string };
    type Listing = { page: number; pageSize: number; total: number; entries: Entry[] };
    const actions = (listing: Listing) => listing.entries.map((entry) => entry.action);

    it("lists the newest first, with who acted and on whom", async () => {
      const first = await get<Listing>("/api/admin/audit");
      expect(first).toMatchObject({ page: 1, pageSize: RECORDS_PAGE_SIZE, total: COUNT + 1 });
      expect(actions(first)).toEqual(["test.gone", ...newestFirst.slice(0, 19).map((i) => `test.${i}`)]);
      expect(actions(await get<Listing>("/api/admin/audit?page=2"))).toEqual(newestFirst.slice(19).map((i) => `test.${i}`));

      const [gone, automatic, byAdmin] = first.entries;
      // The subject's account is gone: the entry stays, without an email.
      expect(gone).toMatchObject({ action: "test.gone", actorEmail: admin.email, subjectId: null, subjectEmail: null });
      // The ids link each email to that learner's page (docs/admin.md, "Learner page").
      expect(byAdmin).toEqual({
        id: expect.any(Number),
        action: "test.24",
        reason: "admin",
        actorId: admin.id,
        actorEmail: admin.email,
        subjectId: "audit-other",
        subjectEmail: "audit.other@example.com",
        changes: { n: 24 },
        createdAt: at(24).toISOString(),
      });
      expect(automatic).toMatchObject({ action: "test.25", reason: "payment LTF-25", actorId: null, actorEmail: null, subjectId: "audit-subject", subjectEmail: "Audit.Subject@Example.com" });
    });

    it("shows one user's entries, found by email in any case or by id", async () => {
      const odd = newestFirst.filter((i) => i % 2 === 1).map((i) => `test.${i}`);
      for (const who of ["Audit.Subject@Example.com", "audit.subject@EXAMPLE.com", "  audit.subject@example.com ", "audit-subject"]) {
        const listing = await get<Listing>(`/api/admin/audit?${new URLSearchParams({ user: who })}`);
        expect(listing.total, who).toBe(odd.length);
        expect(actions(listing), who).toEqual(odd);
      }
      expect(actions(await get<Listing>("/api/admin/audit?user=audit-other"))).toEqual(
        newestFirst.filter((i) => i % 2 === 0).map((i) => `test.${i}`),
      );
    });

    it("finds nothing for a part of an email, an unknown user or a gone one", async () => {
      for (const who of ["audit.subject", "nobody@example.com", "gone@example.com", "%"]) {
        expect(await get(`/api/admin/audit?${new URLSearchParams({ user: who })}`), who).toEqual({
          page: 1,
          pageSize: RECORDS_PAGE_SIZE,
          total: 0,
          entries: [],
        });
      }
    });
  });

  describe("contact messages", () => {
    type Listing = { total: number; messages: { id: string; name: string; email: string; message: string; createdAt: string }[] };

    it("lists the newest first, 20 a page", async () => {
      const first = await get<Listing>("/api/admin/messages");
      expect(first).toMatchObject({ page: 1, pageSize: RECORDS_PAGE_SIZE, total: COUNT });
      expect(first.messages.map((message) => message.name)).toEqual(newestFirst.slice(0, 20).map((i) => `Sender ${i}`));
      expect(first.messages[0]).toEqual({
        id: expect.any(String),
        name: "Sender 25",
        email: "sender25@example.com",
        message: "Question 25",
        createdAt: at(COUNT).toISOString(),
      });
      const second = await get<Listing>("/api/admin/messages?page=2");
      expect(second.messages.map((message) => message.name)).toEqual(newestFirst.slice(20).map((i) => `Sender ${i}`));
    });
  });

  it.each(["/api/admin/waitlist?page=0", "/api/admin/payments?page=x", "/api/admin/audit?page=-2", "/api/admin/messages?page=100001"])(
    "refuses %s",
    async (url) => {
      const response = await t.app.inject({ url, headers: { cookie: admin.cookie } });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("VALIDATION");
    },
  );
});
