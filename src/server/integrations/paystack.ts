// A small typed client of Paystack's transaction API (initialize, verify), its refund API and its
// webhook signature. Amounts are integers in the currency's subunit (pesewas for GHS).
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { PaystackConfig } from "../env.ts";

/**
 * What pays: a card (`brand` visa, `card_type` "visa DEBIT", `last4`) or a mobile-money wallet
 * (`bank` the network, `mobile_money_number`, `bin` and `last4` its ends). Paystack sends `{}` for
 * a transaction never paid; a shape we do not know is dropped, never a reason to refuse a payment.
 */
const authorizationSchema = z
  .object({
    channel: z.string().nullish(),
    brand: z.string().nullish(),
    card_type: z.string().nullish(),
    bank: z.string().nullish(),
    bin: z.string().nullish(),
    last4: z.string().nullish(),
    mobile_money_number: z.string().nullish(),
    // What Charge Authorization charges again, when Paystack marks it reusable (cards only).
    // Each on its own: an odd value here must not cost the receipt its payment method.
    authorization_code: z.string().nullish().catch(null),
    reusable: z.boolean().nullish().catch(null),
  })
  .nullish()
  .catch(null);

export const paystackTransactionSchema = z.object({
  status: z.string(),
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  paid_at: z.string().nullish(),
  channel: z.string().nullish(),
  gateway_response: z.string().nullish(),
  authorization: authorizationSchema,
  // Who Paystack charged: the email the transaction was initialized with.
  customer: z.object({ email: z.string() }).nullish(),
});
export type PaystackTransaction = z.infer<typeof paystackTransactionSchema>;

/**
 * A transaction as Paystack's Verify answered the server's own call: the only answer that may
 * credit a payment or keep a card (docs/subscriptions.md, "Asking Paystack"). Only `verify` makes
 * one; a webhook's body, or any other answer, is never taken for it.
 */
const verifiedTransactionSchema = paystackTransactionSchema.brand<"VerifiedByPaystack">();
export type VerifiedTransaction = z.infer<typeof verifiedTransactionSchema>;

/**
 * The transaction as a log line may show it: without the card's authorization code, which charges
 * the card again (docs/subscriptions.md, "Automatic renewal": no credential in a log line).
 */
export function transactionForLog(transaction: PaystackTransaction) {
  const authorization = transaction.authorization && { ...transaction.authorization, authorization_code: undefined };
  return { ...transaction, authorization };
}

/** How a payment was made, as a receipt names it (docs/subscriptions.md, "Receipts"). */
export type PaymentMethod = { methodChannel: string; methodBrand: string | null; methodNumber: string | null };

// Ghana's mobile-money networks by the names and codes Paystack uses for them.
const NETWORKS: Record<string, string> = {
  mtn: "MTN",
  vod: "Telecel",
  vodafone: "Telecel",
  telecel: "Telecel",
  atl: "AirtelTigo",
  tgo: "AirtelTigo",
  airteltigo: "AirtelTigo",
};

const digitsOf = (value: string | null | undefined) => value?.replace(/\D/g, "") || null;
const titleCase = (value: string) => value.toLowerCase().replace(/\b\w/g, (letter) => letter.toUpperCase());

/**
 * The payment method of a verified transaction, from its `authorization`: a card's brand and last
 * 4 digits; a wallet's network and its number masked (055***4987: the full number is never kept).
 * Null when Paystack names no channel.
 */
export function paymentMethodOf(transaction: PaystackTransaction): PaymentMethod | null {
  const authorization = transaction.authorization;
  const channel = authorization?.channel || transaction.channel;
  if (!channel) return null;
  if (channel === "mobile_money") {
    const wallet = digitsOf(authorization?.mobile_money_number);
    const first = wallet?.slice(0, 3) ?? digitsOf(authorization?.bin)?.slice(0, 3) ?? "";
    const last = wallet?.slice(-4) ?? digitsOf(authorization?.last4);
    const network = authorization?.bank?.trim() || authorization?.brand?.trim() || null;
    return {
      methodChannel: channel,
      methodBrand: network && (NETWORKS[network.toLowerCase().replace(/\s+/g, "")] ?? network),
      methodNumber: last ? `${first}***${last}` : null,
    };
  }
  const brand = channel === "card" ? authorization?.brand?.trim() || authorization?.card_type?.trim().split(/\s+/)[0] : authorization?.bank?.trim();
  return { methodChannel: channel, methodBrand: brand ? titleCase(brand) : null, methodNumber: digitsOf(authorization?.last4)?.slice(-4) ?? null };
}

const initializeResponseSchema = z.object({
  status: z.literal(true),
  data: z.object({ access_code: z.string(), reference: z.string(), authorization_url: z.string() }),
});
const verifyResponseSchema = z.object({ status: z.literal(true), data: verifiedTransactionSchema });
const failureSchema = z.object({ message: z.string() });

/**
 * charge.success, as far as we read it: the reference it names. What it says of the payment is
 * not read; the server asks Verify (docs/integrations.md, "Webhook").
 */
export const chargeSuccessEventSchema = z.object({
  event: z.literal("charge.success"),
  data: z.object({ reference: z.string().min(1).max(100) }),
});

// Paystack's refund ids are integers; its webhooks may send them, and amounts, as strings.
const gatewayId = z.union([z.number().int(), z.string().min(1).max(100)]).transform(String);
const minorAmount = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().positive());

/** A refund as POST /refund answers it (what we read of it). */
const refundSchema = z.object({ id: gatewayId, status: z.string(), amount: z.number().int(), currency: z.string() });
export type PaystackRefund = z.infer<typeof refundSchema>;
const refundResponseSchema = z.object({ status: z.literal(true), data: refundSchema });

/** A refund as Paystack's Fetch Refund and List Refunds answer it (what we read of it). */
const storedRefundSchema = z.object({
  id: gatewayId,
  status: z.string(),
  amount: minorAmount,
  currency: z.string(),
  transaction_reference: z.string().nullish(),
  merchant_note: z.string().nullish(),
  bank_reference: z.string().nullish(),
});
export type PaystackStoredRefund = z.infer<typeof storedRefundSchema>;
const storedRefundResponseSchema = z.object({ status: z.literal(true), data: storedRefundSchema });
const refundListResponseSchema = z.object({ status: z.literal(true), data: z.array(storedRefundSchema) });
/** How many refunds one List Refunds call asks for: the refunds of a few minutes, at this academy's size. */
const REFUND_LIST_PAGE = 100;

/**
 * refund.pending, refund.processed and refund.failed: `data` names the transaction by its
 * reference and carries the amount (a string, often). Paystack's own events may leave out the
 * refund's id; `refund_reference` is the processor's, null until it has one.
 */
export const refundWebhookEventSchema = z.object({
  event: z.enum(["refund.pending", "refund.processed", "refund.failed"]),
  data: z.object({
    id: gatewayId.nullish(),
    status: z.string(),
    transaction_reference: z.string().min(1).max(100),
    refund_reference: z.string().max(100).nullish(),
    amount: minorAmount,
    currency: z.string(),
  }),
});
export type RefundWebhookEvent = z.infer<typeof refundWebhookEventSchema>;

export class PaystackError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null,
  ) {
    super(message);
  }
}

export type PaystackClient = {
  initialize(input: {
    email: string;
    amountMinor: number;
    currency: "GHS";
    reference: string;
    metadata: Record<string, string>;
    callbackUrl: string;
  }): Promise<{ accessCode: string }>;
  /** The transaction as Paystack knows it, or null when Paystack has no such reference. */
  verify(reference: string): Promise<VerifiedTransaction | null>;
  /**
   * Asks Paystack to give back `amountMinor` of a paid transaction; Paystack queues it (status
   * pending) and tells the outcome by webhook. A refusal throws a PaystackError with its status.
   */
  refund(input: { reference: string; amountMinor: number; currency: "GHS"; merchantNote: string }): Promise<PaystackRefund>;
  /** A refund by Paystack's id, or null when Paystack has none. */
  fetchRefund(id: string): Promise<PaystackStoredRefund | null>;
  /** The refunds Paystack created between two moments (one page, the newest first). */
  listRefunds(range: { from: Date; to: Date }): Promise<PaystackStoredRefund[]>;
  /**
   * Charges a saved card again (Charge Authorization) under our own reference, so a repeat is
   * refused by Paystack as a duplicate. The answer is the transaction (`success`, `failed`, ...);
   * a refusal throws a PaystackError with its status, no answer one with a null status.
   */
  chargeAuthorization(input: {
    email: string;
    amountMinor: number;
    currency: "GHS";
    authorizationCode: string;
    reference: string;
    metadata: Record<string, string>;
  }): Promise<PaystackTransaction>;
};

/** A successful answer in the shape expected, or a PaystackError with Paystack's own message and status. */
function answer<S extends z.ZodType>(response: Response, body: unknown, schema: S): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!response.ok || !parsed.success) {
    const message = failureSchema.safeParse(body).data?.message ?? `Paystack answered ${response.status}`;
    throw new PaystackError(message, response.status);
  }
  return parsed.data;
}

export function createPaystackClient(options: { apiUrl: string; secretKey: string }): PaystackClient {
  async function call(path: string, init: RequestInit = {}) {
    let response: Response;
    try {
      response = await fetch(`${options.apiUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${options.secretKey}`, "content-type": "application/json" },
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new PaystackError(`Paystack could not be reached: ${String(error)}`, null);
    }
    const body: unknown = await response.json().catch(() => null);
    return { response, body };
  }

  return {
    async initialize(input) {
      const { response, body } = await call("/transaction/initialize", {
        method: "POST",
        body: JSON.stringify({
          email: input.email,
          amount: input.amountMinor,
          currency: input.currency,
          reference: input.reference,
          channels: ["card", "mobile_money"],
          metadata: input.metadata,
          callback_url: input.callbackUrl,
        }),
      });
      return { accessCode: answer(response, body, initializeResponseSchema).data.access_code };
    },

    async verify(reference) {
      const { response, body } = await call(`/transaction/verify/${encodeURIComponent(reference)}`);
      if (response.status === 404) return null;
      return answer(response, body, verifyResponseSchema).data;
    },

    async refund(input) {
      const { response, body } = await call("/refund", {
        method: "POST",
        body: JSON.stringify({
          transaction: input.reference,
          amount: input.amountMinor,
          currency: input.currency,
          merchant_note: input.merchantNote,
        }),
      });
      return answer(response, body, refundResponseSchema).data;
    },

    async fetchRefund(id) {
      const { response, body } = await call(`/refund/${encodeURIComponent(id)}`);
      if (response.status === 404) return null;
      return answer(response, body, storedRefundResponseSchema).data;
    },

    async chargeAuthorization(input) {
      const { response, body } = await call("/transaction/charge_authorization", {
        method: "POST",
        body: JSON.stringify({
          email: input.email,
          amount: input.amountMinor,
          currency: input.currency,
          authorization_code: input.authorizationCode,
          reference: input.reference,
          metadata: input.metadata,
        }),
      });
      return answer(response, body, verifyResponseSchema).data;
    },

    async listRefunds(range) {
      const query = new URLSearchParams({ from: range.from.toISOString(), to: range.to.toISOString(), perPage: String(REFUND_LIST_PAGE) });
      const { response, body } = await call(`/refund?${query}`);
      return answer(response, body, refundListResponseSchema).data;
    },
  };
}

/** The client for the configured Paystack (or its simulator); null when payments are disabled. */
export function paystackClientFor(config: PaystackConfig): PaystackClient | null {
  return config.mode === "disabled" ? null : createPaystackClient({ apiUrl: config.apiUrl, secretKey: config.secretKey });
}

/** Paystack signs the raw body with HMAC-SHA512 and the secret key; compared in constant time. */
export function isValidWebhookSignature(rawBody: Buffer, signature: string | undefined, secretKey: string): boolean {
  if (!signature) return false;
  const expected = Buffer.from(createHmac("sha512", secretKey).update(rawBody).digest("hex"));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
