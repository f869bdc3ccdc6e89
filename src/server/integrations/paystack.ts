// A small typed client of Paystack's transaction API (initialize, verify) and its webhook
// signature. Amounts are integers in the currency's subunit (pesewas for GHS).
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

export const paystackTransactionSchema = z.object({
  status: z.string(),
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  paid_at: z.string().nullish(),
  channel: z.string().nullish(),
  gateway_response: z.string().nullish(),
});
export type PaystackTransaction = z.infer<typeof paystackTransactionSchema>;

const initializeResponseSchema = z.object({
  status: z.literal(true),
  data: z.object({ access_code: z.string(), reference: z.string(), authorization_url: z.string() }),
});
const verifyResponseSchema = z.object({ status: z.literal(true), data: paystackTransactionSchema });
const failureSchema = z.object({ message: z.string() });

export const webhookEventSchema = z.object({ event: z.string(), data: paystackTransactionSchema });

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
  verify(reference: string): Promise<PaystackTransaction | null>;
};

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
      const parsed = initializeResponseSchema.safeParse(body);
      if (!response.ok || !parsed.success) {
        const message = failureSchema.safeParse(body).data?.message ?? `Paystack answered ${response.status}`;
        throw new PaystackError(message, response.status);
      }
      return { accessCode: parsed.data.data.access_code };
    },

    async verify(reference) {
      const { response, body } = await call(`/transaction/verify/${encodeURIComponent(reference)}`);
      if (response.status === 404) return null;
      const parsed = verifyResponseSchema.safeParse(body);
      if (!response.ok || !parsed.success) {
        const message = failureSchema.safeParse(body).data?.message ?? `Paystack answered ${response.status}`;
        throw new PaystackError(message, response.status);
      }
      return parsed.data.data;
    },
  };
}

/** Paystack signs the raw body with HMAC-SHA512 and the secret key; compared in constant time. */
export function isValidWebhookSignature(rawBody: Buffer, signature: string | undefined, secretKey: string): boolean {
  if (!signature) return false;
  const expected = Buffer.from(createHmac("sha512", secretKey).update(rawBody).digest("hex"));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
