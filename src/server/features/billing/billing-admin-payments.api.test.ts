// The Payments tab's filters (docs/product.md, "Admin console"): by status and by when the
// payment was made, filtered and paged in the database; refunded payments carry what was given back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORDS_PAGE_SIZE, type AdminPayment } from "../../../shared/contracts/admin.ts";
import { PAYMENT_STATUSES } from "../../../shared/contracts/billing.ts";
import { payments, users } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(93);

// One payment a day through August 2025, each day's status in turn.
const DAYS = 30;
const day = (n: number) => new Date(Date.UTC(2025, 7, n, 12));
const statusOf = (n: number) => PAYMENT_STATUSES[n % PAYMENT_STATUSES.length] ?? "pending";

type Listing = { page: number; pageSize: number; total: number; payments: AdminPayment[] };

describe("the Payments tab's filters", () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await createTestUsers(t, nextIp, { admin: { plan: "admin" } }))("admin");
    await t.database.db.insert(users).values({ id: "payer", email: "efua@example.com", name: "Efua Owusu" });
    await t.database.db.insert(payments).values(
      Array.from({ length: DAYS }, (_, i) => {
        const n = i + 1;
        const status = statusOf(n);
        return {
          reference: `LTF-ADVANCED-${n}`,
          userId: "payer",
          userEmail: "efua@example.com",
          kind: "subscription" as const,
          plan: "advanced" as const,
          amountMinor: 77_300,
          refundedMinor: status === "refunded" ? 77_300 : 0,
          priceUsdCents: 5000,
          exchangeRate: "15.450000",
          status,
          createdAt: day(n),
        };
      }),
    );
  });
  afterAll(() => t.close());

  async function list(query: Record<string, string>): Promise<Listing> {
    const response = await t.app.inject({ url: `/api/admin/payments?${new URLSearchParams(query)}`, headers: { cookie: admin.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Listing>();
  }
  const days = (listing: Listing) => listing.payments.map((p) => Number(p.reference.split("-").at(-1)));
  const newestFirst = (filter: (n: number) => boolean) =>
    Array.from({ length: DAYS }, (_, i) => DAYS - i).filter(filter);

  it("keeps one status, newest first", async () => {
    for (const status of PAYMENT_STATUSES) {
      const listing = await list({ status });
      const expected = newestFirst((n) => statusOf(n) === status);
      expect(listing.total, status).toBe(expected.length);
      expect(days(listing), status).toEqual(expected);
    }
  });

  it("keeps a date range: from inclusive, to exclusive", async () => {
    const listing = await list({ from: "2025-08-10T00:00:00.000Z", to: "2025-08-13T00:00:00.000Z" });
    expect(days(listing)).toEqual([12, 11, 10]);
    expect(listing.total).toBe(3);
    expect(days(await list({ from: "2025-08-28T00:00:00+02:00" }))).toEqual([30, 29, 28]);
    expect(days(await list({ to: "2025-08-02T12:00:00.000Z" }))).toEqual([1]);
    expect((await list({ from: "2025-08-20T00:00:00.000Z", to: "2025-08-10T00:00:00.000Z" })).payments).toEqual([]);
  });

  it("combines status and dates, and pages what they keep", async () => {
    const listing = await list({ status: "refunded", from: "2025-08-01T00:00:00.000Z", to: "2025-09-01T00:00:00.000Z" });
    expect(days(listing)).toEqual(newestFirst((n) => statusOf(n) === "refunded"));
    expect(listing.payments[0]).toMatchObject({ status: "refunded", amountMinor: 77_300, refundedMinor: 77_300, userName: "Efua Owusu" });

    const all = await list({ from: "2025-08-01T00:00:00.000Z" });
    expect(all).toMatchObject({ page: 1, pageSize: RECORDS_PAGE_SIZE, total: DAYS });
    expect(days(await list({ from: "2025-08-01T00:00:00.000Z", page: "2" }))).toEqual(newestFirst(() => true).slice(RECORDS_PAGE_SIZE));
  });

  it.each<Record<string, string>>([{ status: "paid" }, { from: "yesterday" }, { to: "2025-08-01" }])("refuses %j with 400", async (query) => {
    const response = await t.app.inject({ url: `/api/admin/payments?${new URLSearchParams(query)}`, headers: { cookie: admin.cookie } });
    expect(response.statusCode).toBe(400);
  });
});
