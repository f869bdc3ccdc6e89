// Signed-in learners made through the HTTP API, as e2e/support/accounts.ts makes them: each
// registers from a loopback source address of its own (registration is limited per address),
// verifies with the link from the development mailbox and signs in for its session cookie.
import { createHmac, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { openDatabase } from "../../src/server/db/client.ts";
import { optionLetterOrPosition } from "../../src/shared/quiz-option.ts";
import { loopbackCall, type LoopbackAnswer } from "../../src/server/testing/loopback-http.ts";
import type { Database } from "./processes.ts";

const PASSWORD = "Bench-Trading-Academy-2025";

let nextAddress = 0;

/** A fresh 127.201.x.y for every account (all of 127.0.0.0/8 reaches the app on Linux). */
function sourceAddress(): string {
  const n = nextAddress++;
  return `127.201.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}

function expectStatus(answer: LoopbackAnswer, expected: number, what: string): void {
  if (answer.status !== expected) {
    throw new Error(`${what}: expected ${expected}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The verification token from the newest mail to `email`, waiting up to 10 s for it. */
async function verificationToken(base: string, from: string, email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await loopbackCall(base, from, "GET", `/dev/mail/messages?${new URLSearchParams({ to: email })}`);
    expectStatus(answer, 200, "reading the development mailbox");
    const messages = isRecord(answer.body) && Array.isArray(answer.body.messages) ? answer.body.messages : [];
    for (const message of messages) {
      const text = isRecord(message) ? `${String(message.text)}\n${String(message.html)}` : "";
      for (const href of text.match(/https?:\/\/[^\s"'<>]+/g) ?? []) {
        if (!URL.canParse(href.replace(/&amp;/g, "&"))) continue;
        const link = new URL(href.replace(/&amp;/g, "&"));
        const token = link.searchParams.get("oobCode");
        if (link.pathname.startsWith("/verify-email") && token) return token;
      }
    }
    await sleep(100);
  }
  throw new Error(`no verification mail for ${email}`);
}

/** Registers, verifies and signs in one learner; returns the Cookie header of the session. */
export async function signedInLearner(base: string, label: string): Promise<string> {
  const from = sourceAddress();
  const email = `bench-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await loopbackCall(base, from, "POST", "/api/accounts/register", {
    fullName: "Ama Mensah",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expectStatus(registered, 201, `registering ${email}`);
  const token = await verificationToken(base, from, email);
  expectStatus(
    await loopbackCall(base, from, "GET", `/api/auth/verify-email?${new URLSearchParams({ token })}`),
    200,
    `verifying ${email}`,
  );
  const signIn = await loopbackCall(base, from, "POST", "/api/auth/sign-in/email", { email, password: PASSWORD });
  expectStatus(signIn, 200, `signing in ${email}`);
  const cookie = signIn.setCookies.map((header) => header.split(";")[0] ?? "").filter(Boolean).join("; ");
  if (!cookie.includes("ta.session_token=")) throw new Error(`signing in ${email} set no session cookie`);
  return cookie;
}

/** `count` learners, made a few at a time (each costs two password hashes on the server). */
export async function signedInLearners(base: string, label: string, count: number): Promise<string[]> {
  const cookies: string[] = [];
  const parallel = 4;
  for (let first = 0; first < count; first += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - first) }, (_, i) =>
      signedInLearner(base, `${label}-${first + i}`),
    );
    cookies.push(...(await Promise.all(batch)));
  }
  return cookies;
}

/**
 * The id of the first module of a track (watching it opens the quiz) and, for each quiz question,
 * the letter of its first option, read with a learner's session.
 */
export async function trackShape(base: string, cookie: string, track: string): Promise<{ firstModuleId: string; answers: string[] }> {
  const response = await fetch(`${base}/api/programs/${track}`, { headers: { cookie } });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`GET /api/programs/${track}: ${response.status} ${JSON.stringify(body)}`);
  const modules = isRecord(body) && Array.isArray(body.modules) ? body.modules : [];
  const first: unknown = modules[0];
  if (!isRecord(first) || typeof first.id !== "string") throw new Error(`the ${track} track has no modules`);
  const questions: unknown[] = isRecord(body) && isRecord(body.quiz) && Array.isArray(body.quiz.questions) ? body.quiz.questions : [];
  const answers = questions.map((question) => {
    const options: unknown[] = isRecord(question) && Array.isArray(question.options) ? question.options : [];
    return optionLetterOrPosition(String(options[0]), 0);
  });
  return { firstModuleId: first.id, answers };
}

/**
 * `count` more learners like the signed-in one of `templateCookie` (the same plan and progress
 * entries, so the quiz is open to them), each with a session, written straight into the database
 * while the app is stopped (PGlite allows one process), and the Cookie header of each, signed with
 * the app's `secret` as the auth library signs its cookie (src/server/auth/session.ts). Quiz answers
 * are limited to 5 a minute per learner and question: a run of several thousand answers a second
 * needs thousands of learners, and two password hashes each (registration, sign-in) would take
 * minutes.
 */
export async function copiedLearners(database: Database, templateCookie: string, count: number, secret: string): Promise<string[]> {
  const [name, value] = templateCookie.split("; ").find((cookie) => cookie.includes("session_token="))?.split("=") ?? [];
  const templateToken = decodeURIComponent(value ?? "").split(".")[0];
  if (!name || !templateToken) throw new Error("the template learner has no session cookie");
  const prefix = `bench-${randomBytes(18).toString("base64url")}-`;
  const opened = await openDatabase(database.kind === "pglite" ? { kind: "pglite", dataDir: database.dataDir } : database);
  try {
    await opened.db.transaction(async (tx) => {
      const numbers = sql`generate_series(1, ${count}::int) as n`;
      const template = sql`(select user_id from sessions where token = ${templateToken})`;
      const inserted = await tx.execute(sql`insert into users (id, name, email, email_verified, subscription_plan, subscription_status)
        select ${prefix} || n, t.name, ${prefix} || n || '@example.com', true, t.subscription_plan, t.subscription_status
        from ${numbers}, users t where t.id = ${template} returning id`);
      if (z.object({ rows: z.array(z.unknown()) }).parse(inserted).rows.length !== count) {
        throw new Error("the template learner's session was not found");
      }
      // The template's expiry, so that none is due for the library's refresh (a write per request).
      await tx.execute(sql`insert into sessions (id, user_id, token, expires_at)
        select ${prefix} || n, ${prefix} || n, ${prefix} || n, t.expires_at from ${numbers}, sessions t where t.token = ${templateToken}`);
      await tx.execute(sql`insert into user_progress (user_id, program_id, data, started_at)
        select ${prefix} || n, p.program_id, p.data, p.started_at from ${numbers}, user_progress p where p.user_id = ${template}`);
    });
  } finally {
    await opened.close();
  }
  return Array.from({ length: count }, (_, i) => {
    const token = `${prefix}${i + 1}`;
    const signature = createHmac("sha256", secret).update(token).digest("base64");
    return `${name}=${encodeURIComponent(`${token}.${signature}`)}`;
  });
}
