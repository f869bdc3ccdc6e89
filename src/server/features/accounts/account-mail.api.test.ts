// The account emails over real SMTP: a local sink receives what nodemailer sends, and a closed
// port stands for a mail server that is down.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { devMail, users } from "../../db/schema.ts";
import {
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
import { startSmtpSink, type SmtpSink } from "../../testing/smtp-sink.ts";

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

describe("account emails when the mail server is down", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every send fails with ECONNREFUSED.
    t = await createTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:1" } });
  });
  afterAll(() => t.close());

  it("creates the account and says the verification email could not be sent", async () => {
    const email = "no-mail@example.com";
    const response = await register(t, registrationForm(email), nextIp());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ status: "created-mail-failed", message: AUTH_MESSAGES.verificationMailFailed });
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ emailVerified: false, subscriptionPlan: "legacyFree", provider: "email" });
  });

  it("says so, without pretending, when a new link for an unverified account cannot be sent", async () => {
    const email = "no-mail-again@example.com";
    await register(t, registrationForm(email), nextIp());
    const response = await register(t, registrationForm(email), nextIp());
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: { code: "MAIL_FAILED", message: AUTH_MESSAGES.verificationMailFailed, requestId: expect.any(String) } });
  });

  it("does not claim a reset email was sent when it was not", async () => {
    const email = "no-mail-reset@example.com";
    await register(t, registrationForm(email), nextIp());
    const response = await forgotPassword(t, { email }, nextIp());
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: { code: "MAIL_FAILED", message: AUTH_MESSAGES.unexpected, requestId: expect.any(String) } });
  });
});
