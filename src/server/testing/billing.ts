// Billing helpers for API tests: the app's payment endpoints as a signed-in browser calls them,
// the Paystack simulator's test control (settle a transaction without a browser), and webhooks
// posted as Paystack would post them (signed with the secret key, or not).
import { and, asc, eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { z } from "zod";
import { paystackSignature } from "../../../dev/fakes/paystack-simulator.ts";
import type { PaidPlan } from "../../shared/plans.ts";
import { auditLog, jobs, payments, users } from "../db/schema.ts";
import { RECEIPT_JOB } from "../features/billing/billing-crediting.ts";
import { createTestUsers, type TestUser, type TestUserPlan } from "./accounts.ts";
import { createTestApp, type TestApp } from "./test-app.ts";

/** The simulator's secret key: it authorizes the test control and signs webhooks. */
export function simulatorSecretKey(t: TestApp): string {
  const { paystack } = t.services.env;
  if (paystack.mode !== "simulator") throw new Error("the app does not use the Paystack simulator");
  return paystack.secretKey;
}

function simulatorUrl(t: TestApp, path: string): string {
  if (!t.baseUrl) throw new Error("the Paystack simulator is reached over HTTP: createTestApp({ listen: true })");
  return `${t.baseUrl}/dev/fakes/paystack${path}`;
}

const transactionSchema = z.looseObject({
  reference: z.string(),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
});
export type SimulatedTransaction = z.infer<typeof transactionSchema>;

const simulateResponseSchema = z.object({
  data: transactionSchema,
  webhook: z.object({ delivered: z.boolean(), statusCode: z.number().nullable() }).nullable(),
});

export type Settlement = {
  outcome: "success" | "failed";
  /** What paid: Paystack's test card (the default) or its test MTN wallet. */
  channel?: "card" | "mobile_money";
  /** What verify and the webhook then report instead of the amount initialized (tampering). */
  amount?: number;
  currency?: string;
  /** Paid by this customer instead of the one the checkout was started for. */
  customerEmail?: string;
  /** The simulator POSTs charge.success to the app unless this is false. */
  deliverWebhook?: boolean;
};

/** Settles a transaction as the checkout would; returns Paystack's transaction and the webhook delivery. */
export async function simulatePayment(t: TestApp, reference: string, settlement: Settlement) {
  const response = await fetch(simulatorUrl(t, `/simulate/${encodeURIComponent(reference)}`), {
    method: "POST",
    headers: { authorization: `Bearer ${simulatorSecretKey(t)}`, "content-type": "application/json" },
    body: JSON.stringify(settlement),
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`simulate ${reference}: ${response.status} ${JSON.stringify(body)}`);
  return simulateResponseSchema.parse(body);
}

/** The transaction as Paystack knows it (what the server initialized), from the simulator's verify. */
export async function paystackTransaction(t: TestApp, reference: string): Promise<SimulatedTransaction> {
  const response = await fetch(simulatorUrl(t, `/transaction/verify/${encodeURIComponent(reference)}`), {
    headers: { authorization: `Bearer ${simulatorSecretKey(t)}` },
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`verify ${reference} at the simulator: ${response.status} ${JSON.stringify(body)}`);
  return z.object({ data: transactionSchema }).parse(body).data;
}

/**
 * POSTs a webhook to the app. The body is signed with the secret key unless `signature` is given
 * (a string to send instead, or null to send none).
 */
export function postWebhook(t: TestApp, payload: unknown, options: { signature?: string | null } = {}) {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const signature = options.signature === undefined ? paystackSignature(body, simulatorSecretKey(t)) : options.signature;
  return t.app.inject({
    method: "POST",
    url: "/api/paystack/webhook",
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-paystack-signature": signature }) },
    payload: body,
  });
}

/** The app's billing endpoints, as the signed-in browser calls them; each call from a new address. */
export function billingApi(t: TestApp, nextIp: () => string) {
  const call = (user: TestUser | null, options: InjectOptions) =>
    t.app.inject({
      ...options,
      remoteAddress: nextIp(),
      headers: { ...options.headers, ...(user ? { cookie: user.cookie } : {}) },
    });
  const manage = (user: TestUser | null, payload: Record<string, unknown>) =>
    call(user, { method: "POST", url: "/api/subscription-management", payload });
  return {
    call,
    prices: () => call(null, { method: "GET", url: "/api/prices" }),
    checkEligibility: (user: TestUser | null, planId?: PaidPlan) => manage(user, { action: "check_eligibility", planId }),
    getSubscription: (user: TestUser | null) => manage(user, { action: "get_subscription" }),
    /** The same answer as a GET: what the Subscription page reads (and the service worker keeps). */
    readSubscription: (user: TestUser | null) => call(user, { method: "GET", url: "/api/subscription" }),
    buy: (user: TestUser | null, planId: PaidPlan, extra: Record<string, unknown> = {}) =>
      manage(user, { action: "create_subscription", planId, ...extra }),
    verify: (user: TestUser | null, reference: string) =>
      call(user, { method: "GET", url: `/api/verify-paystack?${new URLSearchParams({ reference })}` }),
    waitlistStatus: (user: TestUser | null) => call(user, { method: "GET", url: "/api/waitlist" }),
    joinWaitlist: (user: TestUser | null, plan: PaidPlan, extra: Record<string, unknown> = {}) =>
      call(user, { method: "POST", url: "/api/waitlist/checkout", payload: { plan, ...extra } }),
    verifyWaitlist: (user: TestUser | null, reference: string, plan?: PaidPlan) =>
      call(user, { method: "POST", url: "/api/verify-paystack", payload: { reference, type: "waitlist", plan } }),
  };
}

/** The reference of a checkout the server just created; fails the test with the answer otherwise. */
export function checkoutReference(response: { statusCode: number; body: string; json(): unknown }): string {
  if (response.statusCode !== 200) throw new Error(`checkout answered ${response.statusCode}: ${response.body}`);
  return z.object({ reference: z.string(), accessCode: z.string() }).parse(response.json()).reference;
}

// --- What the database says -------------------------------------------------------------------

export async function paymentRow(t: TestApp, reference: string) {
  const [row] = await t.database.db.select().from(payments).where(eq(payments.reference, reference));
  return row;
}

export async function userRow(t: TestApp, userId: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`no users row ${userId}`);
  return row;
}

export async function auditEntries(t: TestApp, userId: string) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.subjectUserId, userId))
    .orderBy(asc(auditLog.id));
}

export async function receiptJobs(t: TestApp, reference: string) {
  return t.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, RECEIPT_JOB), sql`${jobs.payload}->>'reference' = ${reference}`));
}

/** A user's row before any payment: the plan they signed up with, nothing paid for. */
export const NOTHING_PAID = {
  subscriptionPlan: "legacyFree",
  subscriptionStatus: "inactive",
  subscriptionEnd: null,
  intermediatePaid: false,
  advancedPaid: false,
  waitlistPaid: false,
} as const;

/**
 * A listening app with one signed-in user per key for the enclosing describe block: started
 * before its tests, closed after them. What it returns may be unpacked at once and used inside
 * the tests; `t` reaches the app started for them.
 */
export function useBillingApp<K extends string>(
  nextIp: () => string,
  users: Record<K, TestUserPlan>,
  options: { env?: Record<string, string> } = {},
) {
  let started: TestApp | undefined;
  let lookup: ((key: K) => TestUser) | undefined;
  beforeAll(async () => {
    started = await createTestApp({ listen: true, env: options.env });
    lookup = await createTestUsers(started, nextIp, users);
  });
  afterAll(() => started?.close());

  const current = () => {
    if (!started) throw new Error("the billing app starts before the tests: use it inside one");
    return started;
  };
  const t: TestApp = {
    get app() {
      return current().app;
    },
    get services() {
      return current().services;
    },
    get database() {
      return current().database;
    },
    get baseUrl() {
      return current().baseUrl;
    },
    close: () => current().close(),
  };
  const api = billingApi(t, nextIp);
  return {
    t,
    api,
    user(key: K): TestUser {
      if (!lookup) throw new Error("the test users are made before the tests: use them inside one");
      return lookup(key);
    },
    /** Starts a subscription checkout; returns the server's reference. */
    buy: async (who: TestUser, plan: PaidPlan = "intermediate") => checkoutReference(await api.buy(who, plan)),
    /** Starts a waitlist checkout; returns the server's reference. */
    joinWaitlist: async (who: TestUser, plan: PaidPlan = "intermediate") => checkoutReference(await api.joinWaitlist(who, plan)),
    /** Paid at Paystack (the simulator), with no webhook yet; returns Paystack's transaction. */
    paidAtPaystack: async (reference: string) =>
      (await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false })).data,
  };
}

/** A listening app (the simulator calls it back over HTTP) with one signed-in user per key. */
export async function startBillingApp<K extends string>(nextIp: () => string, users: Record<K, TestUserPlan>) {
  const t = await createTestApp({ listen: true });
  return { t, api: billingApi(t, nextIp), user: await createTestUsers(t, nextIp, users) };
}
