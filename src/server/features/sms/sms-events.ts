// The seam through which other features' events send an SMS (docs/architecture.md, "Seams"): a
// receipt, a reminder, a cohort admission, a mentorship confirmation, each queued once.
import { and, eq, isNotNull } from "drizzle-orm";
import type { SmsPreference } from "../../../shared/contracts/sms.ts";
import type { Db, Tx } from "../../db/client.ts";
import { smsMessages, smsNumbers } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";

export { SMS_TEXTS } from "./sms-texts.ts";

export const SMS_JOB = "sms.send";

type SmsKind = (typeof smsMessages.$inferInsert)["kind"];

export async function queueSmsMessage(db: Db | Tx, message: { userId: string; kind: SmsKind; to: string; content: string; eventKey: string }) {
  const [row] = await db.insert(smsMessages).values(message).onConflictDoNothing().returning({ id: smsMessages.id });
  if (row) await enqueueJob(db, SMS_JOB, { messageId: row.id });
}

/**
 * Queues the SMS of an event, when the learner confirmed a number and chose this kind: once per
 * `eventKey`, however often the email's job runs (docs/product.md, "SMS").
 */
export async function queueEventSms(
  db: Db,
  event: { userId: string; preference: SmsPreference; kind: Exclude<SmsKind, "code">; eventKey: string; content: string },
): Promise<void> {
  const [number] = await db
    .select()
    .from(smsNumbers)
    .where(and(eq(smsNumbers.userId, event.userId), isNotNull(smsNumbers.confirmedAt)));
  if (!number?.[event.preference]) return;
  await queueSmsMessage(db, { userId: event.userId, kind: event.kind, to: number.phone, content: event.content, eventKey: event.eventKey });
}

