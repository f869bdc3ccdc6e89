// Export as CSV, as the administrator's spreadsheet receives it: every user once, the columns of
// the spec, dates in the administrator's time zone, and nothing a spreadsheet would run.
import { text } from "node:stream/consumers";
import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USERS_CSV_COLUMNS } from "../../../shared/contracts/admin.ts";
import type { Plan, Provider } from "../../../shared/plans.ts";
import { users } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { usersCsvStream } from "./users-csv.ts";

const nextIp = ipAllocator(53);

const BULK = 2500;
const BASE = new Date("2025-06-01T12:00:00.000Z");
const HOUR = 3_600_000;
const PLAN_CYCLE: (Plan | null)[] = ["legacyFree", "intermediate", "advanced", "admin", null];
const PROVIDER_CYCLE: (Provider | null)[] = ["email", "google", "mql5", null];
const pad = (n: number) => String(n).padStart(5, "0");
const utcDate = (date: Date) => date.toISOString().slice(0, 10);

/** Bulk user i as its CSV row in UTC; the SQL below makes the same users. */
function bulkRow(i: number): string[] {
  const plan = PLAN_CYCLE[i % 5] ?? null;
  const paid = plan === "intermediate" || plan === "advanced";
  return [
    `learner${i}@example.com`,
    `csv-${pad(i)}`,
    plan ?? "MISSING",
    PROVIDER_CYCLE[i % 4] ?? "Unknown",
    paid ? "active" : "inactive",
    paid ? utcDate(new Date(BASE.getTime() + i * HOUR)) : "N/A",
    i % 4 === 0 ? "N/A" : utcDate(new Date(BASE.getTime() - i * 37 * 60_000)),
  ];
}

async function insertBulkUsers(t: TestApp) {
  await t.database.db.execute(sql`
    insert into users (id, email, provider, subscription_plan, subscription_status, subscription_end, last_active_at)
    select 'csv-' || lpad(i::text, 5, '0'),
           'learner' || i || '@example.com',
           (array['email', 'google', 'mql5', null]::provider[])[1 + i % 4],
           plan,
           case when plan in ('intermediate', 'advanced') then 'active' else 'inactive' end::subscription_status,
           case when plan in ('intermediate', 'advanced') then ${BASE.toISOString()}::timestamptz + i * interval '1 hour' end,
           case when i % 4 <> 0 then ${BASE.toISOString()}::timestamptz - i * interval '37 minutes' end
    from generate_series(1, ${BULK}) as i,
         lateral (select (array['legacyFree', 'intermediate', 'advanced', 'admin', null]::plan[])[1 + i % 5] as plan) as p`);
}

/** Users a spreadsheet could trip over, each with the row it must get (UTC). */
const ODD_USERS = [
  {
    id: "odd-tricky",
    email: 'smith, "the boss"\njohn@odd.test',
    row: ['smith, "the boss"\njohn@odd.test', "odd-tricky", "legacyFree", "Unknown", "inactive", "N/A", "N/A"],
  },
  { id: "=HYPERLINK(\"http://evil.test\")", email: "=1+2@odd.test", row: ["'=1+2@odd.test", "'=HYPERLINK(\"http://evil.test\")"] },
  { id: "odd-plus", email: "+cmd@odd.test", row: ["'+cmd@odd.test", "odd-plus"] },
  { id: "odd-minus", email: "-cmd@odd.test", row: ["'-cmd@odd.test", "odd-minus"] },
  { id: "odd-at", email: "@cmd@odd.test", row: ["'@cmd@odd.test", "odd-at"] },
];

/** RFC 4180, as a spreadsheet reads it: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i];
    if (quoted) {
      if (char === '"' && csv[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && csv[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += char;
  }
  if (cell !== "" || row.length > 0) throw new Error(`the file does not end with a line break: ${JSON.stringify(cell)}`);
  return rows;
}

describe("GET /api/admin/users.csv", () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    admin = (await createTestUsers(t, nextIp, { admin: { plan: "admin" } }))("admin");
    await insertBulkUsers(t);
    await t.database.db.insert(users).values(ODD_USERS.map(({ id, email }) => ({ id, email })));
    await t.database.db.insert(users).values([
      {
        id: "odd-midnight",
        email: "midnight@odd.test",
        provider: "mql5",
        subscriptionPlan: "advanced",
        subscriptionStatus: "active",
        // 11:30 UTC is already the next day in Auckland (UTC+13 in March).
        subscriptionEnd: new Date("2025-03-01T11:30:00Z"),
        // 05:00 UTC is still the day before in Los Angeles.
        lastActiveAt: new Date("2025-03-01T05:00:00Z"),
      },
      { id: "odd-bare", email: "bare@odd.test", subscriptionPlan: null, provider: null, subscriptionStatus: "expired" },
    ]);
  });
  afterAll(() => t.close());

  function exportCsv(query = "") {
    return t.app.inject({ url: `/api/admin/users.csv${query}`, headers: { cookie: admin.cookie } });
  }

  async function rowsByUid(query = ""): Promise<Map<string, string[]>> {
    const response = await exportCsv(query);
    expect(response.statusCode, response.body).toBe(200);
    const [, ...records] = parseCsv(response.body);
    return new Map(records.map((record) => [record[1] ?? "", record]));
  }

  it("is a CSV attachment named users.csv with the spec's columns, one row per user", async () => {
    const started = performance.now();
    const response = await exportCsv();
    const elapsed = Math.round(performance.now() - started);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="users.csv"');
    expect(response.headers["cache-control"]).toBe("no-store");

    const [header, ...records] = parseCsv(response.body);
    expect(header).toEqual([...USERS_CSV_COLUMNS]);
    expect(response.body.startsWith("Email,UID,SubscriptionPlan,Provider,Status,SubscriptionEnd,LastActive\r\n")).toBe(true);
    const [stored] = await t.database.db.select({ n: count() }).from(users);
    expect(records).toHaveLength(stored?.n ?? -1);
    expect(records).toHaveLength(BULK + ODD_USERS.length + 3);
    expect(records.every((record) => record.length === USERS_CSV_COLUMNS.length)).toBe(true);
    expect(new Set(records.map((record) => record[1])).size).toBe(records.length);
    console.info(`exported ${records.length} users (${response.body.length} bytes) in ${elapsed} ms`);
  });

  it("writes each user's plan, provider, status and dates, with MISSING, Unknown and N/A for what is absent", async () => {
    const rows = await rowsByUid();
    for (let i = 1; i <= BULK; i++) expect(rows.get(`csv-${pad(i)}`)).toEqual(bulkRow(i));
    expect(rows.get("odd-bare")).toEqual(["bare@odd.test", "odd-bare", "MISSING", "Unknown", "expired", "N/A", "N/A"]);
    expect(rows.get("odd-midnight")).toEqual(["midnight@odd.test", "odd-midnight", "advanced", "mql5", "active", "2025-03-01", "2025-03-01"]);
    expect(rows.get(admin.id)?.slice(0, 5)).toEqual([admin.email, admin.id, "admin", "email", "inactive"]);
    expect(rows.get(admin.id)?.[6]).toBe(utcDate(new Date()));
  });

  it("writes dates on the calendar of the time zone asked for", async () => {
    expect((await rowsByUid("?tz=Pacific/Auckland")).get("odd-midnight")?.slice(5)).toEqual(["2025-03-02", "2025-03-01"]);
    expect((await rowsByUid("?tz=America/Los_Angeles")).get("odd-midnight")?.slice(5)).toEqual(["2025-03-01", "2025-02-28"]);
    expect((await rowsByUid("?tz=UTC")).get("odd-midnight")?.slice(5)).toEqual(["2025-03-01", "2025-03-01"]);
  });

  it("refuses a time zone that does not exist", async () => {
    for (const tz of ["Mars/Olympus_Mons", "", "x".repeat(65)]) {
      const response = await exportCsv(`?${new URLSearchParams({ tz })}`);
      expect(response.statusCode, tz).toBe(400);
      expect(response.json().error.code).toBe("VALIDATION");
    }
    expect((await exportCsv("?tz=Mars/Olympus_Mons")).json()).toEqual({ error: { code: "VALIDATION", message: "Unknown time zone.", requestId: expect.any(String) } });
  });

  it("keeps commas, quotes and line breaks inside their cell", async () => {
    const response = await exportCsv();
    expect(response.body).toContain('"smith, ""the boss""\njohn@odd.test",odd-tricky,');
    expect((await rowsByUid()).get("odd-tricky")).toEqual(ODD_USERS[0]?.row);
  });

  it("puts a ' before a cell a spreadsheet would run as a formula", async () => {
    const response = await exportCsv();
    const [, ...records] = parseCsv(response.body);
    for (const { email, row } of ODD_USERS.slice(1)) {
      expect(records.find((record) => record[0] === row[0])?.slice(0, 2), email).toEqual(row);
    }
    expect(records.some((record) => record.some((cell) => /^[=+\-@\t\r]/.test(cell)))).toBe(false);
  });

  it("reads the users in batches: any batch size writes the same file", async () => {
    const whole = (await exportCsv()).body;
    for (const batchSize of [7, BULK + ODD_USERS.length + 3, 5000]) {
      expect(await text(usersCsvStream(t.database.db, "UTC", batchSize))).toBe(whole);
    }
  });
});
