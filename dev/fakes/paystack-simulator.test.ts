import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import Fastify, { type FastifyInstance, type InjectOptions } from "fastify";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { builtinEnvironments } from "vitest/runtime";
import { devFakesRoutes } from "./fakes.routes.ts";
import { CHECKOUT_TITLE, PAYSTACK_CHECKOUT_SCRIPT, PAYSTACK_INLINE_SCRIPT } from "./paystack-inline.ts";
import { formatAmount, paystackSignature, paystackSimulator } from "./paystack-simulator.ts";

const SECRET_KEY = "sk_test_simulator_secret";
const AUTH = { authorization: `Bearer ${SECRET_KEY}` };
const HOST = "localhost:3000";
const PREFIX = "/dev/fakes/paystack";
const CREATED_AT = Date.UTC(2026, 0, 15, 12);

type ReceivedWebhook = { headers: IncomingHttpHeaders; raw: Buffer };

/** A stand-in for the app's webhook route: keeps the exact bytes, answers with `statusCode`. */
class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  statusCode = 200;
  readonly #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      this.received.push({ headers: request.headers, raw: Buffer.concat(chunks) });
      response.writeHead(this.statusCode).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("The receiver has no port.");
    return `http://127.0.0.1:${address.port}/api/billing/paystack/webhook`;
  }

  stop() {
    return new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A verify or webhook `data`, as much of it as the tests read. */
type TransactionData = {
  id: number;
  status: string;
  reference: string;
  amount: number;
  requested_amount: number;
  currency: string;
  paid_at: string | null;
  channel: string;
  gateway_response: string;
  metadata: unknown;
  customer: { email: string };
  authorization: Record<string, unknown>;
};

const receiver = new WebhookReceiver();
let webhookUrl: string;
beforeAll(async () => {
  webhookUrl = await receiver.start();
});
afterAll(() => receiver.stop());

let app: FastifyInstance;
let clock: number;

async function startSimulator(options: { webhookUrl?: string } = {}) {
  const simulator = Fastify();
  await simulator.register(paystackSimulator, {
    prefix: PREFIX,
    secretKey: SECRET_KEY,
    webhookUrl: options.webhookUrl ?? webhookUrl,
    now: () => clock,
  });
  return simulator;
}

beforeEach(async () => {
  clock = CREATED_AT;
  receiver.received.length = 0;
  receiver.statusCode = 200;
  app = await startSimulator();
});
afterEach(() => app.close());

function call(method: InjectOptions["method"], path: string, payload?: object, headers: Record<string, string> = AUTH) {
  return app.inject({ method, url: `${PREFIX}${path}`, headers: { host: HOST, ...headers }, payload });
}

const INITIALIZE_BODY = {
  email: "ama@example.test",
  amount: 54_000,
  currency: "GHS",
  reference: "ta-2026-0001",
  channels: ["card", "mobile_money"],
  // Not only ASCII, so a signature over re-encoded text would differ from one over the bytes.
  metadata: { userId: "user-1", planId: "pro-monthly", note: "Ɔsɛ — payé" },
};

async function initialize(overrides: Record<string, unknown> = {}) {
  const response = await call("POST", "/transaction/initialize", { ...INITIALIZE_BODY, ...overrides });
  expect(response.statusCode).toBe(200);
  const body: { data: { authorization_url: string; access_code: string; reference: string } } = response.json();
  return body.data;
}

async function verify(reference: string): Promise<TransactionData> {
  const response = await call("GET", `/transaction/verify/${reference}`);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toMatchObject({ status: true, message: "Verification successful" });
  return response.json().data;
}

function webhookBody(webhook: ReceivedWebhook): { event: string; data: TransactionData } {
  return JSON.parse(webhook.raw.toString("utf8"));
}

describe("Paystack simulator API", () => {
  it("initializes a transaction that verify reports as abandoned until it is paid", async () => {
    const response = await call("POST", "/transaction/initialize", INITIALIZE_BODY);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: true, message: "Authorization URL created" });
    expect(body.data.reference).toBe(INITIALIZE_BODY.reference);
    expect(body.data.access_code).toMatch(/^[a-z0-9]+$/);
    expect(body.data.authorization_url).toBe(`http://${HOST}${PREFIX}/checkout/${body.data.access_code}`);

    expect(await verify(INITIALIZE_BODY.reference)).toMatchObject({
      domain: "test",
      status: "abandoned",
      reference: INITIALIZE_BODY.reference,
      amount: 54_000,
      currency: "GHS",
      paid_at: null,
      created_at: new Date(CREATED_AT).toISOString(),
      channel: "card",
      gateway_response: "The transaction was not completed",
      metadata: INITIALIZE_BODY.metadata,
      customer: { email: INITIALIZE_BODY.email },
    });
    // Paystack reports an empty authorization until something has paid.
    expect((await verify(INITIALIZE_BODY.reference)).authorization).toEqual({});
  });

  it("settles a simulated success and signs a charge.success webhook carrying verify's data", async () => {
    await initialize();
    clock = CREATED_AT + 60_000;
    const response = await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true, webhook: { delivered: true, statusCode: 200 } });

    const verified = await verify(INITIALIZE_BODY.reference);
    expect(verified).toMatchObject({
      status: "success",
      paid_at: new Date(CREATED_AT + 60_000).toISOString(),
      gateway_response: "Successful",
      fees: 1053,
      // Paystack's test Visa card, as its Verify answer names a card.
      authorization: {
        channel: "card",
        brand: "visa",
        card_type: "visa ",
        last4: "4081",
        bank: "TEST BANK",
        authorization_code: expect.stringMatching(/^AUTH_/),
        reusable: true,
      },
    });

    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    if (!webhook) throw new Error("No webhook arrived.");
    expect(webhook.headers["content-type"]).toBe("application/json");
    expect(webhook.headers["x-paystack-signature"]).toBe(paystackSignature(webhook.raw, SECRET_KEY));
    expect(webhook.headers["x-paystack-signature"]).toMatch(/^[0-9a-f]{128}$/);
    expect(webhookBody(webhook)).toEqual({ event: "charge.success", data: verified });
  });

  it("reports metadata as an empty string when none was sent", async () => {
    await initialize({ metadata: undefined });
    expect((await verify(INITIALIZE_BODY.reference)).metadata).toBe("");
  });

  it("refuses a reference it has seen", async () => {
    await initialize();
    const again = await call("POST", "/transaction/initialize", { ...INITIALIZE_BODY, amount: 100 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ status: false, message: "Duplicate Transaction Reference" });
    expect((await verify(INITIALIZE_BODY.reference)).amount).toBe(54_000);
  });

  it.each([
    ["a fractional amount", { amount: 540.5 }, "Invalid Amount Sent"],
    ["a zero amount", { amount: 0 }, "Invalid Amount Sent"],
    ["a negative amount", { amount: -100 }, "Invalid Amount Sent"],
    ["no email", { email: undefined }, "Invalid Email Address Passed"],
    ["a reference with a space", { reference: "ta 1" }, "Invalid transaction reference"],
    ["a reference with a slash", { reference: "ta/1" }, "Invalid transaction reference"],
    ["another currency", { currency: "USD" }, "Currency not supported by merchant"],
  ])("refuses %s", async (_case, overrides, message) => {
    const response = await call("POST", "/transaction/initialize", { ...INITIALIZE_BODY, ...overrides });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: false, message: expect.stringContaining(message) });
  });

  it("accepts every character Paystack allows in a reference", async () => {
    const { reference } = await initialize({ reference: "Ta-2026.01=x" });
    expect((await verify(reference)).reference).toBe("Ta-2026.01=x");
  });

  it.each([
    ["no key", {}],
    ["a wrong key", { authorization: "Bearer sk_test_wrong" }],
    ["the key without Bearer", { authorization: SECRET_KEY }],
  ])("answers 401 Invalid key to a call with %s", async (_case, headers) => {
    await initialize();
    const calls = [
      call("POST", "/transaction/initialize", { ...INITIALIZE_BODY, reference: "other" }, headers),
      call("GET", `/transaction/verify/${INITIALIZE_BODY.reference}`, undefined, headers),
      call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success" }, headers),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: false, message: "Invalid key" });
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("answers 404 for a reference it does not know", async () => {
    for (const response of [
      await call("GET", "/transaction/verify/nobody-knows"),
      await call("POST", "/simulate/nobody-knows", { outcome: "success" }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ status: false, message: "Transaction reference not found" });
    }
  });

  it("records a simulated failure without a webhook, as Paystack sends none", async () => {
    await initialize();
    const response = await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, {
      outcome: "failed",
      channel: "mobile_money",
    });
    expect(response.json()).toMatchObject({ status: true, webhook: null });
    expect(await verify(INITIALIZE_BODY.reference)).toMatchObject({
      status: "failed",
      gateway_response: "Declined",
      paid_at: null,
      channel: "mobile_money",
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("holds the webhook back when a test asks it to", async () => {
    await initialize();
    const response = await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, {
      outcome: "success",
      deliverWebhook: false,
    });
    expect(response.json()).toMatchObject({ status: true, webhook: null });
    expect((await verify(INITIALIZE_BODY.reference)).status).toBe("success");
    expect(receiver.received).toHaveLength(0);
  });

  it("reports a tampered amount and currency in verify and in the webhook", async () => {
    await initialize();
    await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success", amount: 100, currency: "NGN" });
    const verified = await verify(INITIALIZE_BODY.reference);
    expect(verified).toMatchObject({ status: "success", amount: 100, currency: "NGN", requested_amount: 54_000 });
    const [webhook] = receiver.received;
    if (!webhook) throw new Error("No webhook arrived.");
    expect(webhookBody(webhook).data).toMatchObject({ amount: 100, currency: "NGN" });
  });

  it("reports a webhook the receiver refused, and still records the payment", async () => {
    receiver.statusCode = 500;
    await initialize();
    const response = await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success" });
    expect(response.statusCode).toBe(200);
    expect(response.json().webhook).toEqual({ delivered: false, statusCode: 500 });
    expect((await verify(INITIALIZE_BODY.reference)).status).toBe("success");
  });

  it("reports a webhook nobody could receive without failing the call", async () => {
    await app.close();
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    app = await startSimulator({ webhookUrl: "http://127.0.0.1:9/webhook" });
    await initialize();
    const response = await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success" });
    expect(response.statusCode).toBe(200);
    expect(response.json().webhook).toEqual({ delivered: false, statusCode: null });
  });

  it("answers a malformed JSON body in Paystack's error shape", async () => {
    const response = await app.inject({
      method: "POST",
      url: `${PREFIX}/transaction/initialize`,
      headers: { host: HOST, ...AUTH, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: false });
  });
});

describe("Paystack simulator Charge Authorization", () => {
  /** A transaction paid by card (reusable unless told): its authorization, as verify reports it. */
  async function savedCard(reusable?: boolean) {
    await initialize();
    await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success", channel: "card", reusable });
    return (await verify(INITIALIZE_BODY.reference)).authorization;
  }
  const charge = (authorizationCode: unknown, overrides: Record<string, unknown> = {}) =>
    call("POST", "/transaction/charge_authorization", {
      email: INITIALIZE_BODY.email,
      amount: 54_100,
      currency: "GHS",
      authorization_code: authorizationCode,
      reference: "LTF-RENEW-1",
      ...overrides,
    });

  it("charges a saved reusable card again, answering with the transaction and its authorization", async () => {
    const authorization = await savedCard();
    expect(authorization).toMatchObject({ channel: "card", reusable: true, last4: "4081" });
    const response = await charge(authorization.authorization_code);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: true,
      message: "Charge attempted",
      data: {
        status: "success",
        reference: "LTF-RENEW-1",
        amount: 54_100,
        currency: "GHS",
        customer: { email: INITIALIZE_BODY.email },
        authorization: { authorization_code: authorization.authorization_code, reusable: true },
      },
    });
    expect(await verify("LTF-RENEW-1")).toMatchObject({ status: "success", amount: 54_100 });
    expect((await charge(authorization.authorization_code)).json()).toEqual({ status: false, message: "Duplicate Transaction Reference" });
  });

  it("declines with the bank's reason when a test asks it to", async () => {
    const authorization = await savedCard();
    await call("POST", "/simulate/charge-authorization-mode", { mode: "failed", reason: "Insufficient Funds" });
    const response = await charge(authorization.authorization_code);
    expect(response.json()).toMatchObject({ status: true, data: { status: "failed", gateway_response: "Insufficient Funds" } });
  });

  it("refuses a card that is not reusable, another customer's card, and an unknown code", async () => {
    const authorization = await savedCard(false);
    expect((await charge(authorization.authorization_code)).json()).toEqual({ status: false, message: "This authorization is not reusable" });
    expect((await charge(authorization.authorization_code, { email: "kofi@example.test" })).statusCode).toBe(400);
    expect((await charge("AUTH_unknown")).json()).toEqual({ status: false, message: "Invalid Authorization code" });
  });
});

describe("Paystack simulator refunds", () => {
  async function paidTransaction() {
    await initialize();
    await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success", deliverWebhook: false });
    return verify(INITIALIZE_BODY.reference);
  }

  it("queues a refund, answers with Paystack's shape, then processes it and signs a refund.processed webhook", async () => {
    const transaction = await paidTransaction();
    const response = await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference, amount: 10_000, merchant_note: "Asked" });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(response.json()).toMatchObject({ status: true, message: "Refund has been queued for processing" });
    expect(data).toMatchObject({
      transaction: { id: transaction.id, reference: INITIALIZE_BODY.reference, amount: 54_000, currency: "GHS" },
      status: "pending",
      amount: 10_000,
      currency: "GHS",
      merchant_note: "Asked",
      id: expect.any(Number),
    });
    const fetched = await call("GET", `/refund/${data.id}`);
    expect(fetched.json()).toMatchObject({ status: true, data: { id: data.id, status: "pending", transaction: transaction.id, transaction_reference: INITIALIZE_BODY.reference } });

    // The simulator processes it by itself shortly after.
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 2_000 });
    const [webhook] = receiver.received;
    if (!webhook) throw new Error("No webhook arrived.");
    expect(webhook.headers["x-paystack-signature"]).toBe(paystackSignature(webhook.raw, SECRET_KEY));
    expect(JSON.parse(webhook.raw.toString("utf8"))).toEqual({
      event: "refund.processed",
      data: {
        id: String(data.id),
        status: "processed",
        transaction_reference: INITIALIZE_BODY.reference,
        refund_reference: `TRF_sim${data.id}`,
        amount: "10000",
        currency: "GHS",
        processor: "simulator",
        customer: { first_name: null, last_name: null, email: INITIALIZE_BODY.email },
        integration: 100_001,
        domain: "test",
      },
    });
    expect((await call("GET", `/refund/${data.id}`)).json().data.status).toBe("processed");
  });

  it("refuses what Paystack refuses: an unpaid transaction, more than is left, an unknown one", async () => {
    await initialize();
    expect((await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference })).json()).toEqual({
      status: false,
      message: "Cannot refund a transaction that was not successful",
    });
    await call("POST", `/simulate/${INITIALIZE_BODY.reference}`, { outcome: "success", deliverWebhook: false });
    expect((await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference, amount: 40_000 })).statusCode).toBe(200);
    const tooMuch = await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference, amount: 14_001 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe("Refund amount cannot be more than the unrefunded transaction amount");
    expect((await call("POST", "/refund", { transaction: "nope" })).statusCode).toBe(404);
    expect((await call("GET", "/refund/42")).statusCode).toBe(404);
    expect((await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference }, {})).statusCode).toBe(401);
  });

  it("refuses every refund when a test asks it to, and lets a test settle one by hand", async () => {
    await paidTransaction();
    expect((await call("POST", "/simulate/refunds", { refuse: "Refunds are paused", autoProcess: false })).json()).toMatchObject({
      data: { refuse: "Refunds are paused", autoProcess: false },
    });
    const refused = await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ status: false, message: "Refunds are paused" });

    await call("POST", "/simulate/refunds", { refuse: null });
    const { data } = (await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference })).json();
    expect(data.amount).toBe(54_000);
    expect(receiver.received).toHaveLength(0);
    const settled = await call("POST", `/simulate/refund/${data.id}`, { outcome: "failed" });
    expect(settled.json()).toMatchObject({ data: { status: "failed" }, webhook: { delivered: true, statusCode: 200 } });
    expect(JSON.parse(receiver.received[0]?.raw.toString("utf8") ?? "{}")).toMatchObject({ event: "refund.failed" });
    // A failed refund gave nothing back: the whole amount can be refunded again.
    expect((await call("POST", "/refund", { transaction: INITIALIZE_BODY.reference })).json().data.amount).toBe(54_000);
  });
});

describe("Paystack simulator checkout", () => {
  it("serves the inline and checkout scripts as uncached JavaScript", async () => {
    for (const [path, script] of [
      ["/inline.js", PAYSTACK_INLINE_SCRIPT],
      ["/checkout.js", PAYSTACK_CHECKOUT_SCRIPT],
    ] as const) {
      const response = await call("GET", path, undefined, {});
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.body).toBe(script);
    }
  });

  it("shows a test-mode checkout with the amount in cedis, the email and the reference", async () => {
    const { access_code: accessCode } = await initialize();
    const response = await call("GET", `/checkout/${accessCode}`, undefined, {});
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    const html = response.body;
    expect(html).toContain(`<title>${CHECKOUT_TITLE}</title>`);
    expect(html).toContain("TEST MODE");
    expect(html).toContain("GH₵ 540.00");
    expect(html).toContain(INITIALIZE_BODY.email);
    expect(html).toContain(INITIALIZE_BODY.reference);
    for (const label of ["Pay", "Fail", "Close"]) {
      expect(html).toMatch(new RegExp(`<button type="button"[^>]*>${label}</button>`));
    }
    expect(html).toContain(`<script src="${PREFIX}/checkout.js" defer></script>`);
    // The app's Content-Security-Policy forbids inline scripts: every script has a src.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it("answers an unknown access code with a 404 page and a 404 lookup", async () => {
    const page = await call("GET", "/checkout/unknowncode", undefined, {});
    expect(page.statusCode).toBe(404);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("Transaction not found");
    const lookup = await call("GET", "/checkout/unknowncode/transaction", undefined, {});
    expect(lookup.statusCode).toBe(404);
    const pay = await call("POST", "/checkout/unknowncode/pay", {}, {});
    expect(pay.statusCode).toBe(404);
  });

  it("pays through the checkout with the chosen channel and delivers the webhook", async () => {
    const { access_code: accessCode, reference } = await initialize();
    const response = await call("POST", `/checkout/${accessCode}/pay`, { channel: "mobile_money" }, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true, data: { reference, status: "success" } });

    const verified = await verify(reference);
    // Paystack's test MTN wallet, as its Verify answer names mobile money: never reusable.
    expect(verified).toMatchObject({
      status: "success",
      channel: "mobile_money",
      authorization: {
        channel: "mobile_money",
        bank: "MTN",
        brand: "Mtn",
        bin: "055",
        last4: "4987",
        mobile_money_number: "0551234987",
        reusable: false,
      },
    });
    expect(receiver.received.map((webhook) => webhookBody(webhook))).toEqual([{ event: "charge.success", data: verified }]);

    const again = await call("POST", `/checkout/${accessCode}/pay`, { channel: "card" }, {});
    expect(again.statusCode).toBe(409);
    expect(receiver.received).toHaveLength(1);
    expect((await call("GET", `/checkout/${accessCode}`, undefined, {})).body).toContain("already been paid");
  });

  it("declines through the checkout without a webhook, and lets the person try again", async () => {
    const { access_code: accessCode, reference } = await initialize();
    const failed = await call("POST", `/checkout/${accessCode}/fail`, { channel: "card" }, {});
    expect(failed.statusCode).toBe(200);
    expect(await verify(reference)).toMatchObject({ status: "failed", gateway_response: "Declined" });
    expect(receiver.received).toHaveLength(0);

    await call("POST", `/checkout/${accessCode}/pay`, { channel: "card" }, {});
    expect((await verify(reference)).status).toBe("success");
    expect(receiver.received).toHaveLength(1);
  });

  it("refuses a channel the transaction does not offer", async () => {
    const { access_code: accessCode } = await initialize({ channels: ["card"] });
    const response = await call("POST", `/checkout/${accessCode}/pay`, { channel: "mobile_money" }, {});
    expect(response.statusCode).toBe(400);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("formatAmount", () => {
  it.each([
    [54_000, "GHS", "GH₵ 540.00"],
    [5, "GHS", "GH₵ 0.05"],
    [123_456_789, "GHS", "GH₵ 1,234,567.89"],
    [100, "NGN", "NGN 1.00"],
  ])("shows %i in %s as %s", (minorUnits, currency, shown) => {
    expect(formatAmount(minorUnits, currency)).toBe(shown);
  });
});

describe("devFakesRoutes", () => {
  it("mounts the Paystack simulator only when given its options", async () => {
    const without = Fastify();
    await without.register(devFakesRoutes);
    expect((await without.inject({ method: "GET", url: `${PREFIX}/inline.js` })).statusCode).toBe(404);
    await without.close();

    const withPaystack = Fastify();
    await withPaystack.register(devFakesRoutes, { paystack: { secretKey: SECRET_KEY, webhookUrl } });
    expect((await withPaystack.inject({ method: "GET", url: `${PREFIX}/inline.js` })).statusCode).toBe(200);
    await withPaystack.close();
  });
});

type PopCallbacks = Record<"onLoad" | "onSuccess" | "onCancel" | "onError", (value?: unknown) => void>;
type PaystackPop = { resumeTransaction(accessCode: string, callbacks: PopCallbacks): void };
type PageWindow = Window & typeof globalThis & { PaystackPop: new () => PaystackPop };
type PopEvent = { name: "load" | "success" | "cancel" | "error"; value: unknown };

// jsdom takes a moment to start, and a payment crosses two HTTP hops: patience for busy machines.
const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 5000 });

describe("Paystack simulator in a browser (jsdom)", { timeout: 15_000 }, () => {
  let origin: string;
  let teardown: () => unknown;

  beforeEach(async () => {
    origin = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterEach(() => teardown());

  /** A merchant page that loads inline.js from the simulator, as the app's pricing page does. */
  async function openMerchantPage() {
    // jsdom ships no types; vitest's jsdom environment hands out a typed-enough window.
    const environment = await builtinEnvironments.jsdom.setupVM?.({
      jsdom: {
        html: `<!doctype html><body><button>Buy</button><script src="${origin}${PREFIX}/inline.js"></script></body>`,
        url: `${origin}/pricing`,
        resources: "usable",
      },
    });
    if (!environment) throw new Error("vitest's jsdom environment cannot make a window.");
    teardown = environment.teardown;
    const window: PageWindow = environment.getVmContext().window;
    await new Promise((resolve) => window.addEventListener("load", resolve));
    return window;
  }

  function resume(window: PageWindow, accessCode: string) {
    const events: PopEvent[] = [];
    const record = (name: PopEvent["name"]) => (value?: unknown) => events.push({ name, value });
    new window.PaystackPop().resumeTransaction(accessCode, {
      onLoad: record("load"),
      onSuccess: record("success"),
      onCancel: record("cancel"),
      onError: record("error"),
    });
    return { events, names: () => events.map((event) => event.name) };
  }

  /**
   * The checkout iframe, once loaded, with what jsdom lacks and a browser has: fetch in the
   * frame, and postMessage events that carry the sender's origin and window.
   */
  function checkoutFrame(window: PageWindow) {
    const frame = window.document.querySelector("iframe");
    const frameWindow = frame?.contentWindow;
    if (!frame || !frameWindow) throw new Error("No checkout iframe.");
    frameWindow.fetch = (input, init) => fetch(new URL(String(input), frameWindow.location.href), init);
    const targetOrigins: unknown[] = [];
    window.postMessage = (data: unknown, targetOrigin?: string | WindowPostMessageOptions) => {
      targetOrigins.push(targetOrigin);
      const event = new window.MessageEvent("message", { data, origin: frameWindow.location.origin, source: frameWindow });
      setTimeout(() => window.dispatchEvent(event));
    };
    const button = (label: string) => {
      const found = Array.from(frameWindow.document.querySelectorAll("button")).find((each) => each.textContent === label);
      if (!found) throw new Error(`No ${label} button.`);
      return found;
    };
    const alert = () => frameWindow.document.querySelector("[role=alert]")?.textContent;
    return { frame, frameWindow, button, alert, targetOrigins };
  }

  const overlay = (window: PageWindow) => window.document.querySelector("[data-paystack-simulator]");

  it("opens the checkout, pays, and calls onSuccess after the webhook went out", async () => {
    const { access_code: accessCode, reference } = await initialize();
    const window = await openMerchantPage();
    const pop = resume(window, accessCode);
    await eventually(() => expect(pop.names()).toEqual(["load"]));
    const { id } = await verify(reference);
    expect(pop.events[0]?.value).toEqual({ id, customer: { email: INITIALIZE_BODY.email }, accessCode });
    expect(overlay(window)?.getAttribute("role")).toBe("dialog");

    const checkout = checkoutFrame(window);
    expect(checkout.frame.title).toBe(CHECKOUT_TITLE);
    expect(checkout.frame.src).toBe(`${origin}${PREFIX}/checkout/${accessCode}`);
    checkout.frameWindow.document.querySelector<HTMLInputElement>("input[value=mobile_money]")?.click();
    checkout.button("Pay").click();

    await eventually(() => expect(pop.names()).toEqual(["load", "success"]));
    expect(pop.events[1]?.value).toEqual({
      id,
      reference,
      message: "Approved",
      status: "success",
      trans: String(id),
      trxref: reference,
    });
    expect(checkout.targetOrigins).toEqual([origin]);
    expect(overlay(window)).toBeNull();
    expect(await verify(reference)).toMatchObject({ status: "success", channel: "mobile_money" });
    expect(receiver.received).toHaveLength(1);
  });

  it("keeps the checkout open after a decline, and cancels when the person closes it", async () => {
    const { access_code: accessCode, reference } = await initialize();
    const window = await openMerchantPage();
    const pop = resume(window, accessCode);
    await eventually(() => expect(pop.names()).toEqual(["load"]));
    const checkout = checkoutFrame(window);

    checkout.button("Fail").click();
    await eventually(() => expect(checkout.alert()).toBe("Payment failed. Declined."));
    await eventually(() => expect(checkout.targetOrigins).toHaveLength(1));
    expect(overlay(window)).not.toBeNull();
    expect((await verify(reference)).status).toBe("failed");

    checkout.button("Close").click();
    await eventually(() => expect(pop.names()).toEqual(["load", "cancel"]));
    expect(overlay(window)).toBeNull();
    expect(receiver.received).toHaveLength(0);
  });

  it("ignores messages from another origin or another window", async () => {
    const { access_code: accessCode, reference } = await initialize();
    const window = await openMerchantPage();
    const pop = resume(window, accessCode);
    await eventually(() => expect(pop.names()).toEqual(["load"]));
    const { frameWindow } = checkoutFrame(window);
    const data = { source: "paystack-simulator", event: "success", reference };
    const post = (init: MessageEventInit) => window.dispatchEvent(new window.MessageEvent("message", init));
    post({ data, origin: "https://attacker.test", source: frameWindow });
    post({ data, origin, source: window });
    post({ data: { ...data, reference: "other" }, origin, source: frameWindow });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pop.names()).toEqual(["load"]);
    expect(overlay(window)).not.toBeNull();
  });

  it("calls onError for an access code the simulator does not know", async () => {
    const window = await openMerchantPage();
    const pop = resume(window, "unknowncode");
    await eventually(() => expect(pop.names()).toEqual(["error"]));
    expect(pop.events[0]?.value).toEqual({ message: "Transaction not found" });
    expect(overlay(window)).toBeNull();
  });
});
