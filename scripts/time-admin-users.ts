// Times the admin users page, the dashboard and the CSV export on a large database
// (docs/performance.md, "Budgets": with 100,000 users, one page under 50 ms on PostgreSQL, the
// dashboard under 200 ms with 300,000 payments; the export under 5 s with flat memory). Fill the
// database first with scripts/seed-scale.ts.
//
// Usage: DATABASE_URL=postgres://... node --import tsx scripts/time-admin-users.ts [--runs 30]
// It boots the whole app on that database, signs in an administrator of its own
// (timing-admin@scale.example, removed again by `seed-scale --reset`) and calls the routes over
// HTTP, as the browser does.
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { count, eq } from "drizzle-orm";
import { buildApp } from "../src/server/app.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { users } from "../src/server/db/schema.ts";
import { readEnv } from "../src/server/env.ts";
import { freePort } from "../src/server/testing/child-process-env.ts";

const ADMIN_EMAIL = "timing-admin@scale.example";
const ADMIN_PASSWORD = "timing-admin-password";

const { values } = parseArgs({ options: { runs: { type: "string", default: "30" } } });
const runs = Math.max(1, Number(values.runs));

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = readEnv({ ...process.env, LOG_LEVEL: "silent", PORT: String(port), APP_URL: base });
if (env.isProduction) throw new Error("This script never runs against production.");
const database = await openDatabase(env.database);
await database.migrate();
const { app } = await buildApp({ env, database, serveWeb: false, logger: false });
await app.listen({ port, host: "127.0.0.1" });

async function signedInAdmin(): Promise<string> {
  const [existing] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
  if (!existing) {
    const registered = await fetch(`${base}/api/accounts/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ fullName: "Timing Admin", email: ADMIN_EMAIL, password: ADMIN_PASSWORD, confirmPassword: ADMIN_PASSWORD }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  }
  await database.db
    .update(users)
    .set({ emailVerified: true, subscriptionPlan: "admin" })
    .where(eq(users.email, ADMIN_EMAIL));
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign in: ${signIn.status} ${await signIn.text()}`);
  return signIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const cookie = await signedInAdmin();
const [userCount] = await database.db.select({ n: count() }).from(users);

async function timeGet(path: string): Promise<{ ms: number; total: number }> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie } });
  const body = (await response.json()) as { total?: number };
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, total: body.total ?? 0 };
}

const cases: [string, string][] = [
  ["newest first, page 1", "page=1"],
  ["newest first, page 5,000", "page=5000"],
  ["email A-Z, page 1", "sort=email"],
  ["recently active, page 1", "sort=lastActive"],
  ["waitlist paid, not admitted", "waitlistPending=true"],
  ["waitlist paid, not admitted, email A-Z", "waitlistPending=true&sort=email"],
  ["search part of an email (4242)", "search=4242"],
  ["search a common part (@scale), email A-Z", "search=%40scale&sort=email"],
  ["search + waitlist filter + recently active", "search=learner1&waitlistPending=true&sort=lastActive"],
];

console.log(`Users in the database: ${userCount?.n ?? 0}; ${runs} runs per case after 3 warm-up runs.\n`);
console.log("| users page (GET /api/admin/users) | matches | median ms | p95 ms | max ms |");
console.log("|---|---:|---:|---:|---:|");
for (const [label, query] of cases) {
  const path = `/api/admin/users?${query}`;
  for (let i = 0; i < 3; i++) await timeGet(path);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const result = await timeGet(path);
    times.push(result.ms);
    total = result.total;
  }
  times.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(1);
  console.log(`| ${label} | ${total} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${fmt(times.at(-1) ?? 0)} |`);
}

// The dashboard (docs/admin.md, "Dashboard"): every figure at once, for funnels of three lengths.
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
const dashboardCases: [string, string][] = [
  ["funnel of the last 30 days (the default)", ""],
  ["funnel of the last 365 days", `from=${day(364)}&to=${day(0)}`],
  ["funnel of everyone (800 days)", `from=${day(799)}&to=${day(0)}`],
];
console.log("\n| dashboard (GET /api/admin/dashboard) | registered | median ms | p95 ms | max ms |");
console.log("|---|---:|---:|---:|---:|");
for (const [label, query] of dashboardCases) {
  const path = `/api/admin/dashboard?${query}`;
  const timeDashboard = async () => {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, { headers: { cookie } });
    const body = (await response.json()) as { funnel?: { steps?: { learners: number }[] } };
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return { ms, registered: body.funnel?.steps?.[0]?.learners ?? 0 };
  };
  for (let i = 0; i < 3; i++) await timeDashboard();
  const times: number[] = [];
  let registered = 0;
  for (let i = 0; i < runs; i++) {
    const result = await timeDashboard();
    times.push(result.ms);
    registered = result.registered;
  }
  times.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(1);
  console.log(`| ${label} | ${registered} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${fmt(times.at(-1) ?? 0)} |`);
}

// The export: read as a stream, as a browser download does; the server's memory sampled meanwhile.
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
const started = performance.now();
const response = await fetch(`${base}/api/admin/users.csv?tz=Africa/Accra`, { headers: { cookie } });
if (!response.ok || !response.body) throw new Error(`CSV: ${response.status}`);
let bytes = 0;
let lines = 0;
const reader = response.body.getReader();
for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
  bytes += chunk.value.byteLength;
  for (const byte of chunk.value) if (byte === 10) lines++;
}
const exportMs = performance.now() - started;
clearInterval(sampler);
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
console.log(
  `\nCSV export (GET /api/admin/users.csv): ${lines - 1} users, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${(exportMs / 1000).toFixed(2)} s; ` +
    `process memory ${mb(rssBefore)} MB before, ${mb(rssPeak)} MB at the peak (+${mb(rssPeak - rssBefore)} MB).`,
);

await app.close();
await database.close();
