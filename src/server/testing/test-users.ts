// Signed-in users for API tests, made the way a person makes one: register, open the
// verification link from the dev mailbox, sign in. The plan is then set directly in the users
// table, as a payment or an administrator would.
import { desc, eq, sql } from "drizzle-orm";
import type { Plan, SubscriptionStatus } from "../../shared/plans.ts";
import { devMail, users } from "../db/schema.ts";
import type { TestApp } from "./test-app.ts";

export const TEST_ORIGIN = "http://localhost:3000";
export const TEST_PASSWORD = "correct horse battery";

const DAY_MS = 24 * 60 * 60 * 1000;

export type TestUser = { id: string; email: string; cookie: string };

export type TestUserOptions = {
  email: string;
  /** The stored plan; null leaves the row without one. Omitted: the signup default, legacyFree. */
  plan?: Plan | null;
  /** Defaults to active for a paid plan, inactive otherwise. */
  status?: SubscriptionStatus;
  /** Defaults to 30 days from now for a paid plan, none otherwise. */
  subscriptionEnd?: Date | null;
};

// Each user registers and signs in from an address of its own, so that the per-address rate
// limits on registration and sign-in never trip however many users a test file makes.
let addressCounter = 0;
function nextRemoteAddress(): string {
  addressCounter += 1;
  return `10.77.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** "a=1; Path=/, b=2; HttpOnly" -> "a=1; b=2" */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((cookie) => cookie.split(";")[0]).join("; ");
}

function expectStatus(what: string, response: { statusCode: number; body: string }, status: number) {
  if (response.statusCode !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.statusCode}: ${response.body}`);
  }
}

/** A verified, signed-in user with the plan asked for. Safe to call many times in parallel. */
export async function createSignedInUser(t: TestApp, options: TestUserOptions): Promise<TestUser> {
  const { app, database } = t;
  const email = options.email.toLowerCase();
  const remoteAddress = nextRemoteAddress();
  const headers = { origin: TEST_ORIGIN };

  const register = await app.inject({
    method: "POST",
    url: "/api/accounts/register",
    headers,
    remoteAddress,
    payload: { fullName: "Test Learner", email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
  });
  expectStatus(`register ${email}`, register, 201);

  const [mail] = await database.db
    .select({ text: devMail.text })
    .from(devMail)
    .where(eq(devMail.to, email))
    .orderBy(desc(devMail.id))
    .limit(1);
  const link = mail?.text.match(/https?:\/\/\S*\/verify-email\?oobCode=\S+/)?.[0];
  const token = link ? new URL(link).searchParams.get("oobCode") : null;
  if (!token) throw new Error(`no verification link was mailed to ${email}`);
  const verify = await app.inject({
    method: "GET",
    url: `/api/auth/verify-email?token=${encodeURIComponent(token)}`,
    remoteAddress,
  });
  expectStatus(`verify ${email}`, verify, 200);

  const signIn = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers,
    remoteAddress,
    payload: { email, password: TEST_PASSWORD },
  });
  expectStatus(`sign in ${email}`, signIn, 200);
  const cookie = cookieHeader(signIn.headers["set-cookie"]);

  const [user] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new Error(`no users row for ${email}`);

  const { plan = "legacyFree", status, subscriptionEnd } = options;
  if (options.plan !== undefined || status !== undefined || subscriptionEnd !== undefined) {
    const paid = plan === "intermediate" || plan === "advanced";
    const now = Date.now();
    await database.db
      .update(users)
      .set({
        subscriptionPlan: plan,
        subscriptionStatus: status ?? (paid ? "active" : "inactive"),
        subscriptionStart: paid ? new Date(now - DAY_MS) : null,
        subscriptionEnd: subscriptionEnd !== undefined ? subscriptionEnd : paid ? new Date(now + 30 * DAY_MS) : null,
      })
      .where(eq(users.id, user.id));
  }

  return { id: user.id, email, cookie };
}
