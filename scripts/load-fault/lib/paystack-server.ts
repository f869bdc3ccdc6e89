// The Paystack simulator (dev/fakes/paystack-simulator.ts), served by this runner's own process
// instead of inside the app. The embedded simulator keeps its transactions in the app's memory,
// so killing the app would also wipe "Paystack": a payment could never be "paid at Paystack,
// pending in our database" across a restart. Served from here, Paystack outlives the app, as the
// real one does; the app talks to it as it talks to the real Paystack (PAYSTACK_SECRET_KEY and
// PAYSTACK_API_URL), and it sends its signed webhooks to the app's webhook route.
import Fastify, { type FastifyInstance } from "fastify";
import { paystackSignature, paystackSimulator } from "../../../dev/fakes/paystack-simulator.ts";

export const SIMULATOR_SECRET_KEY = "sk_test_load_fault_simulator_key";
const PREFIX = "/dev/fakes/paystack";

export type WebhookDelivery = { delivered: boolean; statusCode: number | null } | null;

export class PaystackServer {
  private constructor(
    private readonly server: FastifyInstance,
    readonly apiUrl: string,
  ) {}

  static async start(appUrl: string): Promise<PaystackServer> {
    const server = Fastify({ logger: false });
    await server.register(paystackSimulator, {
      prefix: PREFIX,
      secretKey: SIMULATOR_SECRET_KEY,
      webhookUrl: `${appUrl}/api/paystack/webhook`,
    });
    await server.listen({ port: 0, host: "127.0.0.1" });
    const address = server.server.address();
    if (typeof address !== "object" || address === null) throw new Error("the Paystack simulator has no port");
    return new PaystackServer(server, `http://127.0.0.1:${address.port}${PREFIX}`);
  }

  /** The app's settings to use this simulator as its Paystack. */
  appEnv(appUrl: string): Record<string, string> {
    return {
      PAYSTACK_SECRET_KEY: SIMULATOR_SECRET_KEY,
      PAYSTACK_API_URL: this.apiUrl,
      // With a Paystack key the app would ask the real exchange-rate service; use its stand-in.
      EXCHANGE_RATE_URL: `${appUrl}/dev/fakes/exchange-rate/v6/latest/USD`,
    };
  }

  private async call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const response = await fetch(`${this.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${SIMULATOR_SECRET_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  /** Settles a transaction at "Paystack" (the checkout's Pay), delivering the webhook or not. */
  async settle(reference: string, deliverWebhook: boolean): Promise<{ status: string; webhook: WebhookDelivery }> {
    const { status, json } = await this.call("POST", `/simulate/${encodeURIComponent(reference)}`, {
      outcome: "success",
      deliverWebhook,
    });
    if (status !== 200) throw new Error(`settling ${reference} at the simulator: ${status} ${JSON.stringify(json)}`);
    return { status: transactionStatus(json), webhook: webhookOf(json) };
  }

  /** The transaction as Paystack reports it (verify's data), for replaying its webhook. */
  async transaction(reference: string): Promise<Record<string, unknown>> {
    const { status, json } = await this.call("GET", `/transaction/verify/${encodeURIComponent(reference)}`);
    if (status !== 200 || typeof json !== "object" || json === null || !("data" in json)) {
      throw new Error(`verify ${reference} at the simulator: ${status} ${JSON.stringify(json)}`);
    }
    const data: unknown = json.data;
    if (typeof data !== "object" || data === null) throw new Error(`verify ${reference}: no data`);
    return { ...data };
  }

  /** POSTs charge.success for the transaction to the app, signed, as Paystack's retries would. */
  async replayWebhook(appUrl: string, reference: string): Promise<{ status: number; text: string }> {
    const body = JSON.stringify({ event: "charge.success", data: await this.transaction(reference) });
    const response = await fetch(`${appUrl}/api/paystack/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-paystack-signature": paystackSignature(body, SIMULATOR_SECRET_KEY) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, text: await response.text() };
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

function transactionStatus(json: unknown): string {
  if (typeof json !== "object" || json === null || !("data" in json)) return "unknown";
  const { data } = json;
  return typeof data === "object" && data !== null && "status" in data && typeof data.status === "string" ? data.status : "unknown";
}

function webhookOf(json: unknown): WebhookDelivery {
  if (typeof json !== "object" || json === null || !("webhook" in json)) return null;
  const { webhook } = json;
  if (typeof webhook !== "object" || webhook === null) return null;
  const delivered = "delivered" in webhook && webhook.delivered === true;
  const statusCode = "statusCode" in webhook && typeof webhook.statusCode === "number" ? webhook.statusCode : null;
  return { delivered, statusCode };
}
