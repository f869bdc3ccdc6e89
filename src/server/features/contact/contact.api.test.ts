import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contacts, jobs } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const SENT = { ok: true, message: "Message sent! We'll get back to you soon." };
const REQUIRED = { error: { code: "VALIDATION", message: "All fields are required.", requestId: expect.any(String) } };
const INVALID_EMAIL = {
  error: { code: "VALIDATION", message: "Please enter a valid email address.", requestId: expect.any(String) },
};

const valid = {
  name: "Ama Mensah",
  email: "ama@example.com",
  message: "When does the next cohort start?",
};

// The contact route is rate limited per IP: each request comes from its own address unless a
// test says otherwise, so the tests do not use up each other's allowance.
let nextIp = 1;
function freshIp(): string {
  nextIp++;
  return `10.0.${Math.floor(nextIp / 250)}.${(nextIp % 250) + 1}`;
}

function postContact(t: TestApp, payload: unknown, remoteAddress = freshIp()) {
  return t.app.inject({
    method: "POST",
    url: "/api/contact",
    payload: payload as object,
    remoteAddress,
  });
}

async function storedContacts(t: TestApp) {
  return t.database.db
    .select({ name: contacts.name, email: contacts.email, message: contacts.message })
    .from(contacts);
}

describe("POST /api/contact", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(contacts).where(sql`true`);
  });

  it.each([
    ["a blank name", { ...valid, name: "" }],
    ["a blank email", { ...valid, email: "" }],
    ["a blank message", { ...valid, message: "" }],
    ["a whitespace-only name", { ...valid, name: "   " }],
    ["a whitespace-only email", { ...valid, email: " \t " }],
    ["a whitespace-only message", { ...valid, message: "\n  \n" }],
    ["every field blank", { name: "", email: "", message: "" }],
  ])("refuses %s and stores nothing", async (_, payload) => {
    const response = await postContact(t, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(REQUIRED);
    expect(await storedContacts(t)).toEqual([]);
  });

  it.each([
    ["name", { email: valid.email, message: valid.message }],
    ["email", { name: valid.name, message: valid.message }],
    ["message", { name: valid.name, email: valid.email }],
  ])("refuses a missing %s and stores nothing", async (_, payload) => {
    const response = await postContact(t, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(REQUIRED);
    expect(await storedContacts(t)).toEqual([]);
  });

  it("refuses a field that is not text", async () => {
    const response = await postContact(t, { ...valid, name: 42 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(REQUIRED);
    expect(await storedContacts(t)).toEqual([]);
  });

  it.each([["not-an-email"], ["ama@"], ["@example.com"], ["ama example.com"]])(
    "refuses the email %j",
    async (email) => {
      const response = await postContact(t, { ...valid, email });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(INVALID_EMAIL);
      expect(await storedContacts(t)).toEqual([]);
    },
  );

  it("refuses a message over 5000 characters with a clear message", async () => {
    const response = await postContact(t, { ...valid, message: "x".repeat(5001) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: "VALIDATION", message: "Message must be at most 5000 characters.", requestId: expect.any(String) },
    });
    expect(await storedContacts(t)).toEqual([]);
  });

  it("refuses a name over 100 characters", async () => {
    const response = await postContact(t, { ...valid, name: "n".repeat(101) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: "VALIDATION", message: "Name must be at most 100 characters.", requestId: expect.any(String) },
    });
    expect(await storedContacts(t)).toEqual([]);
  });

  it("accepts a message of exactly 5000 characters", async () => {
    const response = await postContact(t, { ...valid, message: "x".repeat(5000) });
    expect(response.statusCode).toBe(201);
    expect(await storedContacts(t)).toHaveLength(1);
  });

  it("stores a valid message once, trimmed, and confirms it", async () => {
    const response = await postContact(t, {
      name: "  Ama Mensah ",
      email: " ama@example.com\t",
      message: "\n When does the next cohort start?  ",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual(SENT);
    expect(await storedContacts(t)).toEqual([valid]);
    const [row] = await t.database.db.select({ createdAt: contacts.createdAt }).from(contacts);
    expect(Math.abs(Date.now() - (row?.createdAt.getTime() ?? 0))).toBeLessThan(60_000);
  });

  it("queues nothing when no webhook is configured", async () => {
    expect((await postContact(t, valid)).statusCode).toBe(201);
    expect(await t.database.db.select().from(jobs)).toEqual([]);
  });

  it("answers the 6th message within the window from one address with 429", async () => {
    const ip = "203.0.113.7";
    for (let i = 1; i <= 5; i++) {
      const response = await postContact(t, { ...valid, message: `Message ${i}` }, ip);
      expect(response.statusCode).toBe(201);
    }
    const sixth = await postContact(t, { ...valid, message: "Message 6" }, ip);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers["content-type"]).toMatch(/^application\/json/);
    expect(sixth.json()).toEqual({
      error: {
        code: "FST_ERR_RATE_LIMIT_EXCEEDED",
        message: "Too many requests. Please try again later.",
        requestId: expect.any(String),
      },
    });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
    const stored = await storedContacts(t);
    expect(stored.map((row) => row.message).sort()).toEqual([
      "Message 1",
      "Message 2",
      "Message 3",
      "Message 4",
      "Message 5",
    ]);

    // Another address is not affected.
    expect((await postContact(t, valid, "203.0.113.8")).statusCode).toBe(201);
  });
});

/** The forwarding jobs queued for messages from one email address. */
async function jobsFor(t: TestApp, email: string) {
  const all = await t.database.db.select().from(jobs);
  return all.filter((job) => (job.payload as { email?: string }).email === email);
}

type Received = { method: string; contentType: string | undefined; body: unknown };

/** A stand-in for the outside webhook: records what it is sent, answers with `status`. */
async function startWebhook() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({
        method: request.method ?? "",
        contentType: request.headers["content-type"],
        body: text ? JSON.parse(text) : null,
      });
      response.writeHead(state.status, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: state.status < 400 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/contact-hook`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("POST /api/contact with CONTACT_WEBHOOK_URL", () => {
  let t: TestApp;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  beforeAll(async () => {
    webhook = await startWebhook();
    t = await createTestApp({ seed: false, env: { CONTACT_WEBHOOK_URL: webhook.url } });
  });
  afterAll(async () => {
    await t.close();
    await webhook.close();
  });
  beforeEach(() => {
    webhook.received.length = 0;
    webhook.state.status = 200;
  });

  it("forwards the message to the webhook as JSON", async () => {
    const response = await postContact(t, { ...valid, name: " Kofi ", email: "kofi@example.com" });
    expect(response.statusCode).toBe(201);
    await t.services.jobs.runDue();

    expect(webhook.received).toEqual([
      {
        method: "POST",
        contentType: "application/json",
        body: { name: "Kofi", email: "kofi@example.com", message: valid.message },
      },
    ]);
    expect(await jobsFor(t, "kofi@example.com")).toEqual([
      expect.objectContaining({
        kind: "contact.forward",
        status: "done",
        attempts: 1,
        lastError: null,
      }),
    ]);
  });

  it("still stores and confirms the message when the webhook fails, and retries later", async () => {
    webhook.state.status = 500;
    const payload = { ...valid, email: "yaw@example.com", message: "Webhook down" };
    const before = Date.now();
    const response = await postContact(t, payload);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual(SENT);
    await t.services.jobs.runDue();

    expect(webhook.received).toHaveLength(1);
    const stored = await storedContacts(t);
    expect(stored).toContainEqual({
      name: valid.name,
      email: "yaw@example.com",
      message: "Webhook down",
    });

    const failing = await jobsFor(t, "yaw@example.com");
    expect(failing).toHaveLength(1);
    const [job] = failing;
    expect(job).toMatchObject({ status: "pending", attempts: 1, lockedAt: null });
    expect(job?.lastError).toMatch(/500/);
    // The next try waits: nothing runs again right away.
    expect(job?.runAt.getTime()).toBeGreaterThan(before + 20_000);
    expect(await t.services.jobs.runDue()).toBe(0);
    expect(webhook.received).toHaveLength(1);
  });
});
