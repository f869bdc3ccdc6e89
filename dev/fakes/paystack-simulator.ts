// A stand-in for Paystack, for development and tests: the JSON API our server calls (initialize,
// verify, refund, charge authorization), signed charge.success and refund webhooks, the v2 inline script, and a checkout
// page where a person chooses to pay, fail or close. Test controls let API tests settle a
// transaction or a refund without a browser, and make the gateway refuse refunds. Transactions
// and refunds live in memory, per plugin instance.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from "fastify";
import { z } from "zod";
import { escapeHtml } from "./oauth-fake-kit.ts";
import { CHECKOUT_TITLE, PAYSTACK_CHECKOUT_SCRIPT, PAYSTACK_INLINE_SCRIPT } from "./paystack-inline.ts";

export type PaystackSimulatorOptions = {
  /** The key the app sends as `Authorization: Bearer ...`; it also signs the webhooks. */
  secretKey: string;
  /** Where charge.success is POSTed: the app's webhook route. */
  webhookUrl: string;
  /** Milliseconds since the epoch; tests pass their own clock. */
  now?: () => number;
};

const CHANNELS = ["card", "mobile_money"] as const;
type Channel = (typeof CHANNELS)[number];
type TransactionStatus = "abandoned" | "success" | "failed";
type Outcome = Exclude<TransactionStatus, "abandoned">;

const GATEWAY_RESPONSES: Record<TransactionStatus, string> = {
  abandoned: "The transaction was not completed",
  success: "Successful",
  failed: "Declined",
};

// Paystack's test mobile-money number for MTN in Ghana.
const TEST_WALLET = "0551234987";

// Paystack Ghana's fee for local cards and mobile money.
const FEE_RATE = 0.0195;
const WEBHOOK_TIMEOUT_MS = 5000;
const REFERENCE = /^[A-Za-z0-9.=-]+$/;

type Transaction = {
  id: number;
  reference: string;
  accessCode: string;
  /** The customer; a test may change it to play a payment by someone else. */
  email: string;
  /** What verify and the webhook report; a test may change it to play a tampered payment. */
  amount: number;
  /** What initialize asked for. */
  requestedAmount: number;
  currency: string;
  metadata: Record<string, unknown> | null;
  channels: readonly Channel[];
  callbackUrl: string | null;
  status: TransactionStatus;
  channel: Channel;
  paidAt: number | null;
  createdAt: number;
  /** The saved card a Charge Authorization charged; a checkout's card gets a code of its own. */
  authorizationCode?: string;
  /** Whether Paystack lets the card be charged again (a test may play a card it does not). */
  reusable?: boolean;
  /** A decline's reason, instead of the plain "Declined". */
  gatewayResponse?: string;
};

/**
 * How the next Charge Authorization calls go, set by a test: answered as documented (`success`,
 * `failed`: declined by the bank), or `timeout`: Paystack charges the card and the answer is lost
 * (the connection drops), or `unreachable`: the connection drops and nothing is charged.
 */
export const CHARGE_MODES = ["success", "failed", "timeout", "unreachable"] as const;
type ChargeMode = (typeof CHARGE_MODES)[number];

const initializeSchema = z.object({
  email: z.string().trim().pipe(z.email()),
  // Paystack also takes the amount as a string of digits.
  amount: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)),
  currency: z.literal("GHS").default("GHS"),
  reference: z.string().regex(REFERENCE).optional(),
  channels: z.array(z.enum(CHANNELS)).min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  callback_url: z.url({ protocol: /^https?$/ }).optional(),
});

const INITIALIZE_PROBLEMS: Record<string, string> = {
  email: "Invalid Email Address Passed",
  amount: "Invalid Amount Sent",
  currency: "Currency not supported by merchant",
  reference: "Invalid transaction reference: use only letters, digits, '-', '.' and '='",
  channels: "Invalid channels: the simulator offers card and mobile_money",
  metadata: "Invalid metadata: send a JSON object",
  callback_url: "Invalid callback_url: send an http(s) URL",
};

const simulateSchema = z.object({
  outcome: z.enum(["success", "failed"]),
  channel: z.enum(CHANNELS).optional(),
  amount: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  /** Paid by another customer than the one the transaction was initialized for. */
  customerEmail: z.email().optional(),
  deliverWebhook: z.boolean().default(true),
  /** A card Paystack marks not reusable (some cards cannot be charged again). */
  reusable: z.boolean().optional(),
});

const chargeAuthorizationSchema = z.object({
  email: z.string().trim().pipe(z.email()),
  amount: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)),
  authorization_code: z.string().min(1),
  currency: z.literal("GHS").default("GHS"),
  reference: z.string().regex(REFERENCE).optional(),
  // Paystack documents a stringified JSON object; it takes an object too.
  metadata: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});

const CHARGE_PROBLEMS: Record<string, string> = {
  email: "Invalid Email Address Passed",
  amount: "Invalid Amount Sent",
  authorization_code: "Authorization code is required",
  currency: "Currency not supported by merchant",
  reference: "Invalid transaction reference: use only letters, digits, '-', '.' and '='",
  metadata: "Invalid metadata: send a JSON object",
};

const chargeModeSchema = z.object({ mode: z.enum(CHARGE_MODES), reason: z.string().min(1).max(200).optional() });

const checkoutActionSchema = z.object({ channel: z.enum(CHANNELS).optional() });

type Failure = { status: false; message: string };
const failure = (message: string): Failure => ({ status: false, message });

function firstProblem(error: z.ZodError, problems: Record<string, string>): string {
  const field = String(error.issues[0]?.path[0] ?? "");
  return problems[field] ?? `Invalid request: check ${field || "the body"}`;
}

/** Compares digests so the check takes as long for a near miss as for a wild guess. */
function hasSecretKey(authorization: string | undefined, secretKey: string): boolean {
  const presented = /^Bearer +(\S+)$/i.exec(authorization ?? "")?.[1];
  if (presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(secretKey));
}

/** Paystack's webhook signature: hex HMAC-SHA512 of the exact body bytes, keyed with the secret key. */
export function paystackSignature(body: string | Buffer, secretKey: string): string {
  return createHmac("sha512", secretKey).update(body).digest("hex");
}

/** "GH₵ 540.00" for 54000 pesewas; another currency by its code. */
export function formatAmount(minorUnits: number, currency: string): string {
  const major = Math.floor(minorUnits / 100).toLocaleString("en-US");
  const minor = String(minorUnits % 100).padStart(2, "0");
  return `${currency === "GHS" ? "GH₵" : currency} ${major}.${minor}`;
}

function customerCode(email: string): string {
  return `CUS_${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 15)}`;
}

/** The `data` of a verify answer, and of a charge.success webhook. */
function transactionData(transaction: Transaction, customerId: number) {
  const { status, channel, amount } = transaction;
  return {
    id: transaction.id,
    domain: "test",
    status,
    reference: transaction.reference,
    receipt_number: null,
    amount,
    message: null,
    gateway_response: transaction.gatewayResponse ?? GATEWAY_RESPONSES[status],
    paid_at: transaction.paidAt === null ? null : new Date(transaction.paidAt).toISOString(),
    created_at: new Date(transaction.createdAt).toISOString(),
    channel,
    currency: transaction.currency,
    // Paystack reports "" when no metadata was sent.
    metadata: transaction.metadata ?? "",
    fees: status === "success" ? Math.round(amount * FEE_RATE) : null,
    requested_amount: transaction.requestedAmount,
    customer: {
      id: customerId,
      first_name: null,
      last_name: null,
      email: transaction.email,
      customer_code: customerCode(transaction.email),
      phone: null,
      metadata: null,
      risk_action: "default",
    },
    authorization: status === "abandoned" ? {} : authorizationOf(transaction),
  };
}

/**
 * The `authorization` Paystack reports for what paid (Paystack's test Visa card, and its test MTN
 * wallet in Ghana); `{}` while nothing has. Mobile money is never reusable; the app charges no
 * authorization again either way.
 */
function authorizationOf(transaction: Transaction) {
  const code = transaction.authorizationCode ?? `AUTH_${createHash("sha256").update(transaction.reference).digest("hex").slice(0, 10)}`;
  if (transaction.channel === "mobile_money") {
    return {
      authorization_code: code,
      bin: "055",
      last4: "4987",
      exp_month: "12",
      exp_year: "9999",
      channel: "mobile_money",
      card_type: "",
      bank: "MTN",
      country_code: "GH",
      brand: "Mtn",
      reusable: false,
      signature: null,
      account_name: null,
      mobile_money_number: TEST_WALLET,
    };
  }
  return {
    authorization_code: code,
    bin: "408408",
    last4: "4081",
    exp_month: "12",
    exp_year: "2030",
    channel: "card",
    card_type: "visa ",
    bank: "TEST BANK",
    country_code: "GH",
    brand: "visa",
    reusable: transaction.reusable ?? true,
    signature: `SIG_${code.slice(5)}`,
    account_name: null,
  };
}

export type WebhookDelivery = { delivered: boolean; statusCode: number | null };

/** Never throws: a webhook that cannot be delivered is reported, as Paystack's dashboard would. */
async function deliverWebhook(
  url: string,
  secretKey: string,
  payload: object,
  log: FastifyBaseLogger,
): Promise<WebhookDelivery> {
  const body = JSON.stringify(payload);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-paystack-signature": paystackSignature(body, secretKey) },
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    if (!response.ok) log.warn({ url, statusCode: response.status }, "Paystack simulator: webhook refused");
    return { delivered: response.ok, statusCode: response.status };
  } catch (error) {
    log.warn({ err: error, url }, "Paystack simulator: webhook not delivered");
    return { delivered: false, statusCode: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Pages

// Inline styles only; scripts come from separate files because the app forbids inline scripts.
const PAGE_STYLE = `*{box-sizing:border-box}body{margin:0;padding:0 .5rem;font:16px/1.5 system-ui,sans-serif;background:#f4f6fa;color:#111}
main{max-width:28rem;margin:1rem auto;padding:1.25rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{font-size:1.25rem;margin:.5rem 0}.badge{display:inline-block;margin:0;padding:.125rem .5rem;border-radius:4px;background:#ffe08a;color:#3d2e00;font-weight:700;letter-spacing:.05em}
dl{margin:1rem 0;display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.amount{font-size:1.25rem;font-weight:700}fieldset{border:1px solid #ccd;border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
fieldset label{display:flex;gap:.5rem;align-items:center;min-height:2.75rem}input[type=radio]{width:1.25rem;height:1.25rem;margin:0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem}
button{flex:1 1 6rem;min-height:2.75rem;font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:6px;border:2px solid #0b1f3a;background:#fff;color:#0b1f3a;cursor:pointer}
button[data-action=pay]{background:#0b1f3a;color:#fff}button[data-action=fail]{border-color:#a00;color:#a00}
button:disabled{opacity:.55;cursor:not-allowed}[role=alert]{color:#a00;font-weight:700}[role=alert]:empty,[role=status]:empty{margin:0}
:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}`;

// Framed by the app's own pages only; script from this origin only.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

function sendPage(reply: FastifyReply, status: number, title: string, body: string, scriptUrl?: string) {
  const script = scriptUrl ? `\n<script src="${escapeHtml(scriptUrl)}" defer></script>` : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>${script}
</head>
<body>
${body}
</body>
</html>
`;
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("content-security-policy", PAGE_CSP)
    .send(html);
}

const CHANNEL_LABELS: Record<Channel, string> = { card: "Card", mobile_money: "Mobile money" };

function checkoutPageBody(transaction: Transaction, checkoutUrl: string): string {
  const paid = transaction.status === "success";
  const channelChoice = transaction.channels
    .map((channel, index) => {
      const checked = index === 0 ? " checked" : "";
      return `<label><input type="radio" name="channel" value="${channel}"${checked}> ${CHANNEL_LABELS[channel]}</label>`;
    })
    .join("\n");
  const actions = paid
    ? `<button type="button" data-action="close">Close</button>`
    : `<button type="button" data-action="pay">Pay</button>
<button type="button" data-action="fail">Fail</button>
<button type="button" data-action="close">Close</button>`;
  const data = Object.entries({
    reference: transaction.reference,
    "pay-url": `${checkoutUrl}/pay`,
    "fail-url": `${checkoutUrl}/fail`,
    "callback-url": transaction.callbackUrl,
  })
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join("");
  return `<main data-checkout${data}>
<p class="badge">TEST MODE</p>
<h1>${escapeHtml(CHECKOUT_TITLE)}</h1>
<p>No money moves. Pay approves the payment and sends the webhook; Fail declines it; Close leaves without paying.</p>
<dl>
<dt>Amount</dt><dd class="amount">${escapeHtml(formatAmount(transaction.amount, transaction.currency))}</dd>
<dt>Email</dt><dd>${escapeHtml(transaction.email)}</dd>
<dt>Reference</dt><dd>${escapeHtml(transaction.reference)}</dd>
</dl>
${paid ? "" : `<fieldset>\n<legend>Pay with</legend>\n${channelChoice}\n</fieldset>`}
<p id="checkout-status" role="status">${paid ? "This transaction has already been paid." : ""}</p>
<p id="checkout-alert" role="alert"></p>
<div class="actions">
${actions}
</div>
</main>`;
}

function sendUnknownCheckout(reply: FastifyReply) {
  const title = "Transaction not found";
  return sendPage(
    reply,
    404,
    title,
    `<main>
<p class="badge">TEST MODE</p>
<h1>${title}</h1>
<p>No transaction matches this access code. The simulator keeps transactions in memory: a restart forgets them.</p>
</main>`,
  );
}

function sendScript(reply: FastifyReply, script: string) {
  return reply.type("text/javascript; charset=utf-8").header("cache-control", "no-store").send(script);
}

// ---------------------------------------------------------------------------------------------
// Routes

type ReferenceParams = { Params: { reference: string } };
type AccessCodeParams = { Params: { accessCode: string } };

/** The simulator's memory: transactions by reference and by access code, and customer ids. */
function createLedger() {
  const transactions = new Map<string, Transaction>();
  const referenceByAccessCode = new Map<string, string>();
  const customerIds = new Map<string, number>();
  const refunds = new Map<number, Refund>();
  // The cards paid with, by authorization code: what Charge Authorization may charge again.
  const cards = new Map<string, { email: string; reusable: boolean }>();
  let nextTransactionId = 1_000_001;
  let nextRefundId = 3_000_001;

  const customerId = (email: string) => {
    const key = email.toLowerCase();
    const id = customerIds.get(key) ?? customerIds.size + 1;
    customerIds.set(key, id);
    return id;
  };
  return {
    byReference: (reference: string) => transactions.get(reference),
    /** Paystack takes a transaction's reference or its id wherever it asks for a transaction. */
    byReferenceOrId: (key: string) =>
      transactions.get(key) ?? [...transactions.values()].find((transaction) => String(transaction.id) === key),
    byAccessCode(accessCode: string) {
      const reference = referenceByAccessCode.get(accessCode);
      return reference === undefined ? undefined : transactions.get(reference);
    },
    add(transaction: Omit<Transaction, "id">): Transaction {
      const added = { ...transaction, id: nextTransactionId++ };
      transactions.set(added.reference, added);
      referenceByAccessCode.set(added.accessCode, added.reference);
      return added;
    },
    dataOf: (transaction: Transaction) => transactionData(transaction, customerId(transaction.email)),
    /** Keeps the card a transaction was paid with, as Paystack keeps its authorization. */
    rememberCard(transaction: Transaction) {
      if (transaction.status !== "success" || transaction.channel !== "card") return;
      const { authorization_code: code, reusable } = authorizationOf(transaction);
      cards.set(code, { email: transaction.email.toLowerCase(), reusable });
    },
    cardByCode: (code: string) => cards.get(code),
    refundById: (id: number) => refunds.get(id),
    /** The refunds created between two moments, the newest first, as List Refunds gives them. */
    refundsBetween: (from: number, to: number) =>
      [...refunds.values()].filter((refund) => refund.createdAt >= from && refund.createdAt <= to).sort((a, b) => b.createdAt - a.createdAt),
    addRefund(refund: Omit<Refund, "id">): Refund {
      const added = { ...refund, id: nextRefundId++ };
      refunds.set(added.id, added);
      return added;
    },
    /** What is left to refund of a transaction: its amount less every refund that did not fail. */
    refundable(transaction: Transaction): number {
      const given = [...refunds.values()]
        .filter((refund) => refund.transaction === transaction && refund.status !== "failed")
        .reduce((sum, refund) => sum + refund.amount, 0);
      return transaction.amount - given;
    },
    customerId,
  };
}
type Ledger = ReturnType<typeof createLedger>;

/** Settles a transaction; a success is announced by webhook unless a test says otherwise. */
type Settle = (
  transaction: Transaction,
  outcome: Outcome,
  channel: Channel | undefined,
  deliver: boolean,
  log: FastifyBaseLogger,
) => Promise<WebhookDelivery | null>;

type Simulator = { ledger: Ledger; settle: Settle; secretKey: string; now: () => number; webhookUrl: string };

export const paystackSimulator: FastifyPluginAsync<PaystackSimulatorOptions> = async (app, options) => {
  const { secretKey, webhookUrl } = options;
  if (!secretKey) throw new Error("The Paystack simulator needs a secret key.");
  if (!URL.canParse(webhookUrl)) throw new Error("The Paystack simulator needs an absolute webhook URL.");
  const now = options.now ?? Date.now;
  const ledger = createLedger();
  const settle: Settle = async (transaction, outcome, channel, deliver, log) => {
    transaction.status = outcome;
    if (channel) transaction.channel = channel;
    // A second success (a test replaying the webhook) keeps the first payment's time.
    transaction.paidAt = outcome === "success" ? (transaction.paidAt ?? now()) : null;
    ledger.rememberCard(transaction);
    // Paystack sends no webhook for a declined charge.
    if (outcome !== "success" || !deliver) return null;
    return deliverWebhook(webhookUrl, secretKey, { event: "charge.success", data: ledger.dataOf(transaction) }, log);
  };

  // Paystack's error shape, not the app's, for every route here.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 400 && statusCode < 500) return reply.code(statusCode).send(failure(error.message));
    request.log.error({ err: error }, "Paystack simulator failed");
    return reply.code(500).send(failure("An error occurred"));
  });

  const simulator: Simulator = { ledger, settle, secretKey, now, webhookUrl };
  registerApiRoutes(app, simulator);
  registerCheckoutRoutes(app, simulator);
  registerRefundRoutes(app, simulator);
};

/** The hook of every API route and test control: the secret key, or Paystack's 401. */
function secretKeyHook(secretKey: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasSecretKey(request.headers.authorization, secretKey)) return reply.code(401).send(failure("Invalid key"));
  };
}

/** The API our server calls, and the test controls that settle a transaction or play tampering. */
function registerApiRoutes(app: FastifyInstance, { ledger, settle, secretKey, now }: Simulator) {
  const requireSecretKey = secretKeyHook(secretKey);

  app.post("/transaction/initialize", { onRequest: requireSecretKey }, async (request, reply) => {
    const parsed = initializeSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, INITIALIZE_PROBLEMS)));
    const body = parsed.data;
    const reference = body.reference ?? randomBytes(5).toString("hex");
    if (ledger.byReference(reference)) return reply.code(400).send(failure("Duplicate Transaction Reference"));

    const { accessCode } = ledger.add({
      ...unpaidTransaction({ ...body, reference }, now()),
      metadata: body.metadata ?? null,
      channels: body.channels ? CHANNELS.filter((channel) => body.channels?.includes(channel)) : CHANNELS,
      callbackUrl: body.callback_url ?? null,
      channel: body.channels?.[0] ?? "card",
    });
    return {
      status: true,
      message: "Authorization URL created",
      data: {
        authorization_url: `${request.protocol}://${request.host}${app.prefix}/checkout/${accessCode}`,
        access_code: accessCode,
        reference,
      },
    };
  });

  app.get<ReferenceParams>("/transaction/verify/:reference", { onRequest: requireSecretKey }, async (request, reply) => {
    const transaction = ledger.byReference(request.params.reference);
    if (!transaction) return reply.code(404).send(failure("Transaction reference not found"));
    return { status: true, message: "Verification successful", data: ledger.dataOf(transaction) };
  });

  app.post<ReferenceParams>("/simulate/:reference", { onRequest: requireSecretKey }, async (request, reply) => {
    const transaction = ledger.byReference(request.params.reference);
    if (!transaction) return reply.code(404).send(failure("Transaction reference not found"));
    const parsed = simulateSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, {})));
    const { outcome, channel, amount, currency, customerEmail, deliverWebhook: deliver, reusable } = parsed.data;
    if (reusable !== undefined) transaction.reusable = reusable;
    if (amount !== undefined) transaction.amount = amount;
    if (currency !== undefined) transaction.currency = currency;
    if (customerEmail !== undefined) transaction.email = customerEmail;
    const webhook = await settle(transaction, outcome, channel, deliver, request.log);
    return { status: true, message: GATEWAY_RESPONSES[outcome], data: ledger.dataOf(transaction), webhook };
  });

  // Charge Authorization: a saved, reusable card of this customer charged again, answered with the
  // transaction (docs/integrations.md, "Paystack"). How it goes is the test's choice (CHARGE_MODES).
  let chargeMode: { mode: ChargeMode; reason?: string } = { mode: "success" };
  app.post("/simulate/charge-authorization-mode", { onRequest: requireSecretKey }, async (request, reply) => {
    const parsed = chargeModeSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, {})));
    chargeMode = parsed.data;
    return { status: true, message: `Charge Authorization now answers ${chargeMode.mode}` };
  });

  app.post("/transaction/charge_authorization", { onRequest: requireSecretKey }, async (request, reply) => {
    const parsed = chargeAuthorizationSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, CHARGE_PROBLEMS)));
    const body = parsed.data;
    const card = ledger.cardByCode(body.authorization_code);
    if (!card || card.email !== body.email.toLowerCase()) return reply.code(400).send(failure("Invalid Authorization code"));
    if (!card.reusable) return reply.code(400).send(failure("This authorization is not reusable"));
    const reference = body.reference ?? randomBytes(5).toString("hex");
    if (ledger.byReference(reference)) return reply.code(400).send(failure("Duplicate Transaction Reference"));
    const { mode, reason } = chargeMode;
    if (mode === "unreachable") return dropConnection(reply);
    const metadata = typeof body.metadata === "string" ? { raw: body.metadata } : (body.metadata ?? null);
    const declined = mode === "failed";
    const transaction = ledger.add({
      ...unpaidTransaction({ ...body, reference }, now()),
      metadata,
      channels: ["card"],
      callbackUrl: null,
      channel: "card",
      authorizationCode: body.authorization_code,
      reusable: card.reusable,
      gatewayResponse: declined ? (reason ?? "Insufficient Funds") : undefined,
    });
    await settle(transaction, declined ? "failed" : "success", "card", true, request.log);
    // The card was charged, and the answer never reaches the caller.
    if (mode === "timeout") return dropConnection(reply);
    return { status: true, message: "Charge attempted", data: ledger.dataOf(transaction) };
  });
}

/** A transaction as it starts: nobody has paid it yet, which Paystack reports as abandoned. */
function unpaidTransaction(input: { reference: string; email: string; amount: number; currency: string }, createdAt: number) {
  const { reference, email, amount, currency } = input;
  return {
    reference,
    accessCode: randomBytes(10).toString("hex"),
    email,
    amount,
    requestedAmount: amount,
    currency,
    status: "abandoned" as const,
    paidAt: null,
    createdAt,
  };
}

/** Closes the connection without an answer: what a caller sees of a timeout or a network fault. */
function dropConnection(reply: FastifyReply) {
  reply.hijack();
  reply.raw.socket?.destroy();
  return reply;
}

/** The browser side: the inline script, the checkout page and its pay and fail buttons. */
function registerCheckoutRoutes(app: FastifyInstance, { ledger, settle }: Simulator) {
  app.get("/inline.js", async (_request, reply) => sendScript(reply, PAYSTACK_INLINE_SCRIPT));
  app.get("/checkout.js", async (_request, reply) => sendScript(reply, PAYSTACK_CHECKOUT_SCRIPT));

  app.get<AccessCodeParams>("/checkout/:accessCode", async (request, reply) => {
    const transaction = ledger.byAccessCode(request.params.accessCode);
    if (!transaction) return sendUnknownCheckout(reply);
    const checkoutUrl = `${app.prefix}/checkout/${transaction.accessCode}`;
    return sendPage(reply, 200, CHECKOUT_TITLE, checkoutPageBody(transaction, checkoutUrl), `${app.prefix}/checkout.js`);
  });

  // What the inline script needs before it opens the checkout (onLoad's id and customer). The
  // access code is the capability here, as on Paystack's own checkout.
  app.get<AccessCodeParams>("/checkout/:accessCode/transaction", async (request, reply) => {
    const transaction = ledger.byAccessCode(request.params.accessCode);
    if (!transaction) return reply.code(404).send(failure("Transaction not found"));
    const { id, reference, email, amount, currency, status } = transaction;
    return reply.header("cache-control", "no-store").send({ id, reference, email, amount, currency, status });
  });

  for (const outcome of ["success", "failed"] as const) {
    const path = outcome === "success" ? "pay" : "fail";
    app.post<AccessCodeParams>(`/checkout/:accessCode/${path}`, async (request, reply) => {
      const transaction = ledger.byAccessCode(request.params.accessCode);
      if (!transaction) return reply.code(404).send(failure("Transaction not found"));
      // Paystack charges a transaction once; a declined attempt may be retried.
      if (transaction.status === "success") return reply.code(409).send(failure("Transaction has already been paid"));
      const parsed = checkoutActionSchema.safeParse(request.body ?? {});
      const channel = parsed.success ? (parsed.data.channel ?? transaction.channels[0]) : undefined;
      if (channel === undefined || !transaction.channels.includes(channel)) {
        return reply.code(400).send(failure("This payment channel is not offered for the transaction"));
      }
      const webhook = await settle(transaction, outcome, channel, true, request.log);
      const { id, reference, status } = transaction;
      return { status: true, message: GATEWAY_RESPONSES[outcome], data: { id, reference, status }, webhook };
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Refunds

type RefundStatus = "pending" | "processed" | "failed";

type Refund = {
  id: number;
  transaction: Transaction;
  amount: number;
  currency: string;
  status: RefundStatus;
  customerNote: string;
  merchantNote: string;
  /** The processor's reference, once it has processed the refund. */
  refundReference: string | null;
  createdAt: number;
  updatedAt: number;
};

/** The simulator's Paystack integration id, as its refund answers and webhooks carry it. */
const INTEGRATION_ID = 100_001;
/** How long a refund stays pending before the simulator processes it (when it does so itself). */
const REFUND_PROCESSING_MS = 200;

const refundCreateSchema = z.object({
  transaction: z.union([z.string().min(1).max(100), z.number().int().positive().transform(String)]),
  amount: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
    .optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  customer_note: z.string().max(1000).optional(),
  merchant_note: z.string().max(1000).optional(),
});

const REFUND_PROBLEMS: Record<string, string> = {
  transaction: "Transaction reference or id is required",
  amount: "Invalid Amount Sent",
  currency: "Invalid currency",
  customer_note: "Customer note is too long",
  merchant_note: "Merchant note is too long",
};

/** GET /refund's query: a window of creation dates and a page. */
const refundListSchema = z.object({
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  perPage: z.coerce.number().int().min(1).max(100).default(50),
  page: z.coerce.number().int().min(1).default(1),
});

const refundControlSchema = z.object({
  /** Refuse every refund with this message (400), until it is set to null. */
  refuse: z.string().trim().min(1).max(200).nullable().optional(),
  /** Process each refund by itself shortly after accepting it (the default), or wait for a test to settle it. */
  autoProcess: z.boolean().optional(),
});

const settleRefundSchema = z.object({
  outcome: z.enum(["processed", "failed"]),
  deliverWebhook: z.boolean().default(true),
});

type RefundIdParams = { Params: { id: string } };

/** POST /refund's `data`: the refund, with the transaction it gives back. */
function refundCreateData(refund: Refund) {
  const { transaction } = refund;
  return {
    transaction: {
      id: transaction.id,
      domain: "test",
      reference: transaction.reference,
      amount: transaction.amount,
      paid_at: transaction.paidAt === null ? null : new Date(transaction.paidAt).toISOString(),
      channel: transaction.channel,
      currency: transaction.currency,
    },
    integration: INTEGRATION_ID,
    deducted_amount: 0,
    channel: null,
    merchant_note: refund.merchantNote,
    customer_note: refund.customerNote,
    status: refund.status,
    refunded_by: "simulator@example.com",
    expected_at: new Date(refund.createdAt + REFUND_PROCESSING_MS).toISOString(),
    currency: refund.currency,
    domain: "test",
    amount: refund.amount,
    fully_deducted: false,
    id: refund.id,
    createdAt: new Date(refund.createdAt).toISOString(),
    updatedAt: new Date(refund.updatedAt).toISOString(),
  };
}

/** GET /refund/:id's `data`. */
function refundFetchData(refund: Refund, customerId: number) {
  const { transaction } = refund;
  return {
    integration: INTEGRATION_ID,
    transaction: transaction.id,
    dispute: null,
    settlement: null,
    id: refund.id,
    domain: "test",
    currency: refund.currency,
    amount: refund.amount,
    status: refund.status,
    refunded_at: refund.status === "processed" ? new Date(refund.updatedAt).toISOString() : null,
    refunded_by: "simulator@example.com",
    customer_note: refund.customerNote,
    merchant_note: refund.merchantNote,
    deducted_amount: 0,
    fully_deducted: 0,
    createdAt: new Date(refund.createdAt).toISOString(),
    bank_reference: refund.refundReference,
    transaction_reference: transaction.reference,
    reason: refund.merchantNote,
    customer: { id: customerId, email: transaction.email, customer_code: customerCode(transaction.email) },
    refund_type: refund.amount === transaction.amount ? "full" : "partial",
    transaction_amount: transaction.amount,
    initiated_by: "merchant",
    refund_channel: transaction.channel,
    session_id: null,
    collect_account_number: false,
  };
}

/** A refund event's `data`, as Paystack sends it: the amount as a string; the id as well. */
function refundEventData(refund: Refund) {
  const { transaction } = refund;
  return {
    id: String(refund.id),
    status: refund.status,
    transaction_reference: transaction.reference,
    refund_reference: refund.refundReference,
    amount: String(refund.amount),
    currency: refund.currency,
    processor: "simulator",
    customer: { first_name: null, last_name: null, email: transaction.email },
    integration: INTEGRATION_ID,
    domain: "test",
  };
}

/**
 * Refunds, as Paystack's Refund API offers them: create (queued, status pending) and fetch; each
 * refund is then processed and announced by a signed refund.processed webhook. Test controls make
 * the gateway refuse refunds, stop processing them by itself, and settle one as processed or failed.
 */
function registerRefundRoutes(app: FastifyInstance, { ledger, secretKey, now, webhookUrl }: Simulator) {
  const requireSecretKey = secretKeyHook(secretKey);
  const settings: { refuse: string | null; autoProcess: boolean } = { refuse: null, autoProcess: true };
  const timers = new Set<NodeJS.Timeout>();
  app.addHook("onClose", async () => {
    for (const timer of timers) clearTimeout(timer);
  });

  const settleRefund = (refund: Refund, outcome: Exclude<RefundStatus, "pending">, deliver: boolean, log: FastifyBaseLogger) => {
    refund.status = outcome;
    refund.updatedAt = now();
    refund.refundReference = outcome === "processed" ? `TRF_sim${refund.id}` : refund.refundReference;
    if (!deliver) return Promise.resolve(null);
    return deliverWebhook(webhookUrl, secretKey, { event: `refund.${outcome}`, data: refundEventData(refund) }, log);
  };

  app.post("/refund", { onRequest: requireSecretKey }, async (request, reply) => {
    const parsed = refundCreateSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, REFUND_PROBLEMS)));
    const body = parsed.data;
    const transaction = ledger.byReferenceOrId(body.transaction);
    if (!transaction) return reply.code(404).send(failure("Transaction not found"));
    if (transaction.status !== "success") return reply.code(400).send(failure("Cannot refund a transaction that was not successful"));
    if (body.currency !== undefined && body.currency !== transaction.currency) {
      return reply.code(400).send(failure("Currency does not match the transaction's currency"));
    }
    const left = ledger.refundable(transaction);
    const amount = body.amount ?? left;
    if (left <= 0) return reply.code(400).send(failure("Transaction has been fully reversed"));
    if (amount > left) return reply.code(400).send(failure("Refund amount cannot be more than the unrefunded transaction amount"));
    if (settings.refuse !== null) return reply.code(400).send(failure(settings.refuse));

    const created = now();
    const refund = ledger.addRefund({
      transaction,
      amount,
      currency: transaction.currency,
      status: "pending",
      customerNote: body.customer_note ?? `Refund for transaction ${transaction.reference}`,
      merchantNote: body.merchant_note ?? `Refund for transaction ${transaction.reference}`,
      refundReference: null,
      createdAt: created,
      updatedAt: created,
    });
    if (settings.autoProcess) {
      // After this answer has gone, as Paystack's own processing would.
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (refund.status === "pending") void settleRefund(refund, "processed", true, app.log);
      }, REFUND_PROCESSING_MS);
      timers.add(timer);
    }
    return { status: true, message: "Refund has been queued for processing", data: refundCreateData(refund) };
  });

  app.get<RefundIdParams>("/refund/:id", { onRequest: requireSecretKey }, async (request, reply) => {
    const refund = ledger.refundById(Number(request.params.id));
    if (!refund) return reply.code(404).send(failure("Refund not found"));
    return { status: true, message: "Refund retrieved", data: refundFetchData(refund, ledger.customerId(refund.transaction.email)) };
  });

  app.get("/refund", { onRequest: requireSecretKey }, async (request, reply) => {
    const parsed = refundListSchema.safeParse(request.query);
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, {})));
    const { from, to, perPage, page } = parsed.data;
    const found = ledger.refundsBetween(from?.getTime() ?? 0, to?.getTime() ?? Number.MAX_SAFE_INTEGER);
    const data = found
      .slice((page - 1) * perPage, page * perPage)
      .map((refund) => refundFetchData(refund, ledger.customerId(refund.transaction.email)));
    return { status: true, message: "Refunds retrieved", data, meta: { total: found.length, perPage, page, pageCount: Math.ceil(found.length / perPage) } };
  });

  // Test controls.
  app.post("/simulate/refunds", { onRequest: requireSecretKey }, async (request, reply) => {
    const parsed = refundControlSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, {})));
    if (parsed.data.refuse !== undefined) settings.refuse = parsed.data.refuse;
    if (parsed.data.autoProcess !== undefined) settings.autoProcess = parsed.data.autoProcess;
    return { status: true, message: "Refund settings updated", data: { ...settings } };
  });

  app.post<RefundIdParams>("/simulate/refund/:id", { onRequest: requireSecretKey }, async (request, reply) => {
    const refund = ledger.refundById(Number(request.params.id));
    if (!refund) return reply.code(404).send(failure("Refund not found"));
    const parsed = settleRefundSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send(failure(firstProblem(parsed.error, {})));
    const webhook = await settleRefund(refund, parsed.data.outcome, parsed.data.deliverWebhook, request.log);
    return { status: true, message: `Refund ${parsed.data.outcome}`, data: refundEventData(refund), webhook };
  });
}
