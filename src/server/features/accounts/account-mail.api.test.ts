// The account emails over real SMTP: a local sink receives what nodemailer sends, and a proxy in
// front of it, cut and restored, stands for a mail server that is down and comes back.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { devMail, jobs, mailOutbox, users } from "../../db/schema.ts";
import { MAIL_JOB } from "../../emails/outbox.ts";
import {
  cookieHeader,
  forgotPassword,
  ipAllocator,
  linkIn,
  PASSWORD,
  register,
  registrationForm,
  resetPassword,
  signIn,
  verifyEmail,
} from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { metricValue, scrapeMetrics, TEST_METRICS_TOKEN } from "../../testing/metrics.ts";
import { startSmtpSink, type SmtpSink } from "../../testing/smtp-sink.ts";
import { startTcpProxy, type TcpProxy } from "../../testing/tcp-proxy.ts";

const nextIp = ipAllocator(21);

type MimePart = { headers: Map<string, string>; body: string };

/** Splits a message (or a part) into lower-cased unfolded headers and its body. */
function splitHeaders(raw: string): MimePart {
  const end = raw.indexOf("\r\n\r\n");
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? "" : raw.slice(end + 4) };
}

function decodeBody(part: MimePart): string {
  const encoding = part.headers.get("content-transfer-encoding")?.toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = part.body
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return part.body;
}

/** Just enough MIME for one multipart/alternative message: its headers and decoded parts. */
function parseMessage(raw: string) {
  const message = splitHeaders(raw);
  const contentType = message.headers.get("content-type") ?? "";
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const parts = boundary
    ? message.body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((chunk) => splitHeaders(chunk.replace(/^\r\n/, "")))
        .map((part) => ({ contentType: part.headers.get("content-type") ?? "", text: decodeBody(part) }))
    : [];
  return { headers: message.headers, contentType, parts };
}

describe("account emails over SMTP", () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it("sends the verification email as text and HTML, and its link verifies the account", async () => {
    const email = "smtp-learner@example.com";
    const response = await register(t, registrationForm(email), nextIp());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ status: "created", message: AUTH_MESSAGES.registrationSuccess });

    // Queued, and delivered at once by the mail jobs the sign-up asked to run.
    await t.services.jobs.runDue(MAIL_JOB);
    const sent = sink.messages.filter((m) => m.to.includes(email));
    expect(sent).toHaveLength(1);
    const message = parseMessage(sent[0]?.raw ?? "");
    expect(message.headers.get("to")).toContain(email);
    expect(message.headers.get("from")).toMatch(/^Trading Academy <no-reply@tradingacademy\.com>$/);
    expect(message.headers.get("subject")).toContain("Trading Academy");
    expect(message.contentType).toMatch(/^multipart\/alternative/i);

    const text = message.parts.find((p) => p.contentType.startsWith("text/plain"));
    const html = message.parts.find((p) => p.contentType.startsWith("text/html"));
    expect(text?.text).toContain("Trading Academy");
    expect(html?.text).toContain("Trading Academy");
    const link = linkIn(text?.text ?? "", "/verify-email");
    expect(link.origin).toBe("http://localhost:3000");
    // The HTML part carries the same link (HTML-escaped) on its button.
    expect(html?.text).toContain(`href="${link.href.replaceAll("&", "&#38;")}"`);

    // With SMTP configured nothing goes to the development mailbox.
    expect(await t.database.db.select().from(devMail)).toEqual([]);

    const verified = await verifyEmail(t, link.searchParams.get("oobCode") ?? "");
    expect(verified.statusCode, verified.body).toBe(200);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(user?.emailVerified).toBe(true);
    expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
  });

  it("sends the password reset email as text and HTML with a working reset link", async () => {
    const email = "smtp-forgetful@example.com";
    await register(t, registrationForm(email), nextIp());
    const response = await forgotPassword(t, { email }, nextIp());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.resetEmailSent });

    await t.services.jobs.runDue(MAIL_JOB);
    const raw = sink.messages.filter((m) => m.to.includes(email)).at(-1)?.raw ?? "";
    const message = parseMessage(raw);
    expect(message.headers.get("subject")).toBe("Reset your Trading Academy password");
    expect(message.contentType).toMatch(/^multipart\/alternative/i);
    const text = message.parts.find((p) => p.contentType.startsWith("text/plain"))?.text ?? "";
    expect(message.parts.some((p) => p.contentType.startsWith("text/html"))).toBe(true);
    const token = linkIn(text, "/reset-password").searchParams.get("token") ?? "";

    const reset = await resetPassword(t, { newPassword: "a brand new secret", token }, nextIp());
    expect(reset.statusCode, reset.body).toBe(200);
  });
});

/** The first link to `path` in the plain-text part of a raw message the sink received. */
function linkInRaw(raw: string, path: string): URL {
  const text = parseMessage(raw).parts.find((p) => p.contentType.startsWith("text/plain"))?.text ?? "";
  return linkIn(text, path);
}

describe("account emails while the mail server is down, and once it is back", () => {
  let sink: SmtpSink;
  let relay: TcpProxy;
  let t: TestApp;
  let adminCookie = "";
  const learner = "relay-down@example.com";
  const forgetful = "relay-down-reset@example.com";

  beforeAll(async () => {
    sink = await startSmtpSink();
    const { port } = new URL(sink.url);
    relay = await startTcpProxy({ host: "127.0.0.1", port: Number(port) });
    t = await createTestApp({ env: { SMTP_URL: relay.proxiedUrl(sink.url), METRICS_TOKEN: TEST_METRICS_TOKEN } });
    // An administrator to read the console's list, made while the mail server is up; their own
    // verification is not this test's business.
    const adminEmail = "relay-admin@example.com";
    expect((await register(t, registrationForm(adminEmail), nextIp())).statusCode).toBe(201);
    await t.database.db.update(users).set({ emailVerified: true, subscriptionPlan: "admin" }).where(eq(users.email, adminEmail));
    adminCookie = cookieHeader((await signIn(t, adminEmail, PASSWORD, nextIp())).headers["set-cookie"]);
    await t.services.jobs.runDue(MAIL_JOB);
    sink.messages.length = 0;
    await relay.cut();
  });
  afterAll(async () => {
    await t.close();
    await relay.close();
    await sink.close();
  });

  const health = async () => (await t.app.inject({ method: "GET", url: "/api/health" })).json<{ status: string; mail?: { failing: number } }>();
  const unsentList = () => t.app.inject({ method: "GET", url: "/api/admin/mail/unsent", headers: { cookie: adminCookie } });
  const outbox = () => t.database.db.select().from(mailOutbox).where(sql`${mailOutbox.to} in (${learner}, ${forgetful})`);
  /** The retries' time has come: the jobs waiting for their back-off are due now. */
  const retriesDue = () => t.database.db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(eq(jobs.status, "pending"));

  it("signs up and sends links as usual, saying they may take a few minutes, while health, metrics and the console report them", async () => {
    const response = await register(t, registrationForm(learner), nextIp());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ status: "created", message: AUTH_MESSAGES.registrationSuccess });
    expect(AUTH_MESSAGES.registrationSuccess).toBe(
      "Registration successful! Please check your email to verify your account. It may take a few minutes to arrive.",
    );
    const [user] = await t.database.db.select().from(users).where(eq(users.email, learner));
    expect(user).toMatchObject({ emailVerified: false, subscriptionPlan: "legacyFree", provider: "email" });

    // A second sign-up with the unverified address sends a new link, as when the server is up.
    const again = await register(t, registrationForm(learner), nextIp());
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toEqual({ status: "verification-resent", message: AUTH_MESSAGES.verificationResent });

    await register(t, registrationForm(forgetful), nextIp());
    const reset = await forgotPassword(t, { email: forgetful }, nextIp());
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ message: AUTH_MESSAGES.resetEmailSent });

    // Each was tried once, at once, and is waiting to be tried again.
    await t.services.jobs.runDue(MAIL_JOB);
    expect(sink.messages).toEqual([]);
    const rows = await outbox();
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.status === "failing" && row.attempts === 1)).toBe(true);

    expect(await health()).toMatchObject({ status: "degraded", database: "ok", mail: { failing: 4 } });
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    expect(metricValue(await scrapeMetrics(t), "mail_unsent", { status: "failing" })).toBe(4);

    // The console lists them: to whom, what about, how often and why, never the message and its link.
    const listed = await unsentList();
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json<{ total: number; messages: Record<string, unknown>[] }>();
    expect(body.total).toBe(4);
    expect(body.messages.map((m) => m.to).sort()).toEqual([forgetful, forgetful, learner, learner]);
    expect(body.messages.find((m) => m.to === forgetful && m.subject === "Reset your Trading Academy password")).toMatchObject({
      status: "failing",
      attempts: 1,
      lastError: expect.stringContaining("ECONNREFUSED"),
    });
    expect(listed.body).not.toMatch(/verify-email|reset-password|token/);
    expect(Object.keys(body.messages[0] ?? {}).sort()).toEqual(["attempts", "createdAt", "id", "lastError", "status", "subject", "to"]);
  });

  it("delivers each queued mail once when the server is back, and its link works", async () => {
    await relay.restore();
    await retriesDue();
    await t.services.jobs.runDue(MAIL_JOB);

    const to = (email: string) => sink.messages.filter((m) => m.to.includes(email));
    expect(to(learner)).toHaveLength(2);
    expect(to(forgetful)).toHaveLength(2);
    const rows = await outbox();
    expect(rows.map((row) => ({ status: row.status, text: row.text, html: row.html }))).toEqual(
      Array.from({ length: 4 }, () => ({ status: "sent", text: "", html: "" })),
    );
    expect(await health()).toMatchObject({ status: "ok", mail: { failing: 0 } });
    expect(metricValue(await scrapeMetrics(t), "mail_unsent", { status: "failing" })).toBe(0);
    expect((await unsentList()).json()).toEqual({ total: 0, messages: [] });

    // Run again, due or not: nothing goes twice.
    await retriesDue();
    await t.services.jobs.runDue();
    expect(to(learner)).toHaveLength(2);
    expect(to(forgetful)).toHaveLength(2);

    const verification = linkInRaw(to(learner).at(-1)?.raw ?? "", "/verify-email");
    expect((await verifyEmail(t, verification.searchParams.get("oobCode") ?? "")).statusCode).toBe(200);
    expect((await t.database.db.select().from(users).where(eq(users.email, learner)))[0]?.emailVerified).toBe(true);
    const reset = linkInRaw(to(forgetful).find((m) => m.raw.includes("Reset your Trading Academy password"))?.raw ?? "", "/reset-password");
    const changed = await resetPassword(t, { newPassword: "a brand new secret", token: reset.searchParams.get("token") ?? "" }, nextIp());
    expect(changed.statusCode, changed.body).toBe(200);
  });
});
