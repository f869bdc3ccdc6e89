// Sends SMS through Hubtel's SMS API when its keys are set, otherwise into the development mailbox
// (read at /dev/mail, as email is). Production without the keys refuses to send rather than
// pretend (docs/integrations.md, "Hubtel SMS").
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { devMail } from "../db/schema.ts";
import type { Env } from "../env.ts";

export type SmsMessage = { to: string; content: string };
/** What Hubtel gave back for an accepted message. */
export type SmsReceipt = { messageId: string; rate: string | null };

export type SmsSender = { send(message: SmsMessage): Promise<SmsReceipt> };

export class SmsNotConfiguredError extends Error {}

// Hubtel's answer: `status` 0 is accepted, anything else a refusal (docs/integrations.md).
const hubtelAnswerSchema = z.object({
  messageId: z.string().optional(),
  status: z.coerce.number(),
  rate: z.union([z.number(), z.string()]).optional(),
  statusDescription: z.string().optional(),
});

const HUBTEL_TIMEOUT_MS = 10_000;

export function createSmsSender(options: { env: Env; db: Db; log: FastifyBaseLogger }): SmsSender {
  const { env, db, log } = options;
  const hubtel = env.hubtel;
  if (hubtel) {
    const authorization = `Basic ${Buffer.from(`${hubtel.clientId}:${hubtel.clientSecret}`).toString("base64")}`;
    return {
      async send({ to, content }) {
        const response = await fetch(`${hubtel.url}/v1/messages/send`, {
          method: "POST",
          headers: { authorization, "content-type": "application/json", accept: "application/json" },
          // Hubtel takes the number as digits, without the "+".
          body: JSON.stringify({ From: hubtel.senderId, To: to.replace(/^\+/, ""), Content: content }),
          signal: AbortSignal.timeout(HUBTEL_TIMEOUT_MS),
        });
        const answer = hubtelAnswerSchema.safeParse(await response.json().catch(() => null));
        if (!response.ok || !answer.success || answer.data.status !== 0 || !answer.data.messageId) {
          // Only the status goes into the error: never the keys or the text (which may hold a code).
          const status = answer.success ? `status ${answer.data.status}${answer.data.statusDescription ? ` (${answer.data.statusDescription})` : ""}` : "an unreadable answer";
          throw new Error(`Hubtel refused the SMS: HTTP ${response.status}, ${status}`);
        }
        return { messageId: answer.data.messageId, rate: answer.data.rate === undefined ? null : String(answer.data.rate) };
      },
    };
  }
  if (env.isProduction) {
    return {
      async send() {
        throw new SmsNotConfiguredError("HUBTEL_CLIENT_ID and HUBTEL_CLIENT_SECRET are not set: SMS cannot be sent.");
      },
    };
  }
  return {
    async send({ to, content }) {
      const [row] = await db
        .insert(devMail)
        .values({ to, subject: "SMS", text: content, html: "" })
        .returning({ id: devMail.id });
      log.info({ to }, "development mailbox: SMS stored");
      return { messageId: `dev-${row?.id ?? 0}`, rate: null };
    },
  };
}
