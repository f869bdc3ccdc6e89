// SMS (docs/product.md, "SMS"): a learner's Ghanaian mobile number, confirmed by a 6-digit code,
// what they chose to receive, and the SMS of events, each queued once and sent by the job queue.
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, gt, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import parsePhoneNumber from "libphonenumber-js/max";
import { z } from "zod";
import {
  formatGhanaPhone,
  SMS_CODE_LENGTH,
  SMS_CODE_LIMITS,
  SMS_CODE_MINUTES,
  SMS_CODE_TRIES,
  SMS_MESSAGES,
  type SmsPreferences,
  type SmsSettings,
} from "../../../shared/contracts/sms.ts";
import { SMS_CODE_LOCK } from "../../db/advisory-locks.ts";
import type { Db, Tx } from "../../db/client.ts";
import { smsCodeRequests, smsMessages, smsNumbers } from "../../db/schema.ts";
import type { SmsSender } from "../../integrations/sms.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { HttpError } from "../../plugins/errors.ts";
import { queueSmsMessage } from "./sms-events.ts";
import { SMS_TEXTS } from "./sms-texts.ts";

const smsJobSchema = z.object({ messageId: z.number() });

/** A Ghanaian mobile number in E.164 (+233 and 9 digits), from any common way of writing it; else null. */
export function normaliseGhanaMobile(input: string): string | null {
  const text = input.trim();
  // "233241234567" is written without its "+": read it as international.
  const written = /^233\d{9}$/.test(text.replace(/[\s-]/g, "")) ? `+${text}` : text;
  const phone = parsePhoneNumber(written, "GH");
  if (!phone || phone.country !== "GH" || !phone.isValid()) return null;
  // libphonenumber's metadata says which ranges are mobile (docs/integrations.md, "Hubtel SMS").
  const type = phone.getType();
  return type === "MOBILE" ? phone.number : null;
}

/** The code as kept: an HMAC under the server's secret, so the table alone cannot give it back. */
function codeHash(secret: string, userId: string, code: string): string {
  return createHmac("sha256", secret).update(`sms-code:${userId}:${code}`).digest("hex");
}

type Deps = { db: Db; secret: string };

const NO_PREFERENCES: SmsPreferences = { reminders: true, receipts: true, cohorts: true, mentorship: true };

export async function smsSettings(db: Db, userId: string): Promise<SmsSettings> {
  const [number] = await db.select().from(smsNumbers).where(eq(smsNumbers.userId, userId));
  if (!number) return { phone: null, confirmed: false, pendingPhone: null, codeStatus: null, preferences: NO_PREFERENCES };
  const [code] = await db
    .select({ status: smsMessages.status })
    .from(smsMessages)
    .where(and(eq(smsMessages.userId, userId), eq(smsMessages.kind, "code")))
    .orderBy(desc(smsMessages.id))
    .limit(1);
  const waitingForCode = !number.confirmedAt || number.pendingPhone !== null;
  const codeStatus = !waitingForCode || !code || code.status === "cancelled" ? null : code.status === "pending" ? "sending" : code.status;
  return {
    phone: number.phone,
    confirmed: number.confirmedAt !== null,
    pendingPhone: number.pendingPhone,
    codeStatus,
    preferences: { reminders: number.reminders, receipts: number.receipts, cohorts: number.cohorts, mentorship: number.mentorship },
  };
}

/** Whether `phone` is confirmed on an account other than `userId`'s. */
async function confirmedOnAnotherAccount(db: Db | Tx, phone: string, userId: string): Promise<boolean> {
  const [taken] = await db
    .select({ userId: smsNumbers.userId })
    .from(smsNumbers)
    .where(and(eq(smsNumbers.phone, phone), isNotNull(smsNumbers.confirmedAt), ne(smsNumbers.userId, userId)));
  return taken !== undefined;
}

/** The wait until the oldest of the counted requests leaves the window, when `max` are in it. */
async function waitFor(tx: Tx, where: ReturnType<typeof eq>, max: number, now: Date): Promise<number | null> {
  const since = new Date(now.getTime() - SMS_CODE_LIMITS.windowMs);
  const rows = await tx
    .select({ createdAt: smsCodeRequests.createdAt })
    .from(smsCodeRequests)
    .where(and(where, gt(smsCodeRequests.createdAt, since)))
    .orderBy(desc(smsCodeRequests.createdAt))
    .limit(max);
  const oldest = rows[max - 1];
  return oldest ? oldest.createdAt.getTime() + SMS_CODE_LIMITS.windowMs - now.getTime() : null;
}

/**
 * Starts confirming a number: checks it is a Ghanaian mobile, counts the limits (per number,
 * account and address), and queues the code's SMS. The code itself is made by the job, so no plain
 * code is ever stored. A confirmed number keeps its SMS until another number's code is given;
 * asking for the confirmed number itself keeps it, and sends nothing.
 *
 * Whether the number is confirmed on another account is not asked here: a number taken and a free
 * one go through the same statements and get the same answer, so the answer, its timing and the
 * settings after it tell the asker nothing (docs/product.md, "SMS"). The job decides, when it
 * sends: the owner of a taken number gets a notice instead of the code.
 */
export async function requestSmsCode(deps: Deps, input: { userId: string; phone: string; ip: string; now: Date }) {
  const phone = normaliseGhanaMobile(input.phone);
  if (!phone) throw new HttpError(400, "VALIDATION_ERROR", SMS_MESSAGES.notGhanaMobile);
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SMS_CODE_LOCK.classId}, ${SMS_CODE_LOCK.id})`);
    const [current] = await tx.select().from(smsNumbers).where(eq(smsNumbers.userId, input.userId)).for("update");
    const confirmed = current?.confirmedAt ? current.phone : null;
    if (confirmed === phone) {
      await tx
        .update(smsNumbers)
        .set({ pendingPhone: null, codeHash: null, codeExpiresAt: null, codeTriesLeft: 0 })
        .where(eq(smsNumbers.userId, input.userId));
      return { phone, message: SMS_MESSAGES.numberKept(formatGhanaPhone(phone)) };
    }
    const limits = [
      [eq(smsCodeRequests.phone, phone), SMS_CODE_LIMITS.perNumber, SMS_MESSAGES.tooManyForNumber],
      [eq(smsCodeRequests.userId, input.userId), SMS_CODE_LIMITS.perAccount, SMS_MESSAGES.tooManyForAccount],
      [eq(smsCodeRequests.ip, input.ip), SMS_CODE_LIMITS.perAddress, SMS_MESSAGES.tooManyFromNetwork],
    ] as const;
    for (const [where, max, message] of limits) {
      const wait = await waitFor(tx, where, max, input.now);
      if (wait !== null) throw new HttpError(429, "TOO_MANY_REQUESTS", message(wait));
    }
    const [request] = await tx
      .insert(smsCodeRequests)
      .values({ phone, userId: input.userId, ip: input.ip, createdAt: input.now })
      .returning({ id: smsCodeRequests.id });
    // A new number (or the same again) waits for its code: beside a confirmed number, which keeps
    // its SMS until then, or on its own.
    const noCode = { codeHash: null, codeExpiresAt: null, codeTriesLeft: 0 };
    await tx
      .insert(smsNumbers)
      .values({ userId: input.userId, phone })
      .onConflictDoUpdate({
        target: smsNumbers.userId,
        set: confirmed ? { pendingPhone: phone, ...noCode } : { phone, confirmedAt: null, pendingPhone: null, ...noCode },
      });
    await queueSmsMessage(tx, { userId: input.userId, kind: "code", to: phone, content: "", eventKey: `code:${request?.id}` });
    return { phone, message: SMS_MESSAGES.codeSent(formatGhanaPhone(phone)) };
  });
}

/** Checks a code: right, the number is confirmed; wrong, one try fewer; expired or none, ask again. */
export async function confirmSmsCode(deps: Deps, input: { userId: string; code: string; now: Date }): Promise<string> {
  const code = input.code.replace(/\s/g, "");
  if (!new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`).test(code)) throw new HttpError(400, "VALIDATION_ERROR", SMS_MESSAGES.codeFormat);
  return deps.db
    .transaction(async (tx): Promise<string | { wrong: number }> => {
    const [number] = await tx.select().from(smsNumbers).where(eq(smsNumbers.userId, input.userId)).for("update");
    if (!number) throw new HttpError(400, "VALIDATION_ERROR", SMS_MESSAGES.noNumber);
    if (number.confirmedAt && !number.pendingPhone) return SMS_MESSAGES.confirmed;
    if (!number.codeHash || !number.codeExpiresAt || number.codeTriesLeft <= 0) {
      throw new HttpError(400, "VALIDATION_ERROR", number.codeHash ? SMS_MESSAGES.codeWrong(0) : SMS_MESSAGES.noCode);
    }
    if (number.codeExpiresAt <= input.now) throw new HttpError(400, "VALIDATION_ERROR", SMS_MESSAGES.codeExpired);
    const expected = Buffer.from(number.codeHash, "hex");
    const given = Buffer.from(codeHash(deps.secret, input.userId, code), "hex");
    if (!timingSafeEqual(expected, given)) {
      const triesLeft = number.codeTriesLeft - 1;
      await tx.update(smsNumbers).set({ codeTriesLeft: triesLeft }).where(eq(smsNumbers.userId, input.userId));
      return { wrong: triesLeft };
    }
    // The code is the waiting number's: it replaces the confirmed one, if any, now.
    const phone = number.pendingPhone ?? number.phone;
    if (await confirmedOnAnotherAccount(tx, phone, input.userId)) throw new HttpError(409, "CONFLICT", SMS_MESSAGES.numberTaken);
    await tx
      .update(smsNumbers)
      .set({ phone, pendingPhone: null, confirmedAt: input.now, codeHash: null, codeExpiresAt: null, codeTriesLeft: 0 })
      .where(eq(smsNumbers.userId, input.userId));
    return SMS_MESSAGES.confirmed;
  })
    .then((result) => {
    // The wrong try is counted (committed) before the learner is told.
    if (typeof result === "object") throw new HttpError(400, "VALIDATION_ERROR", SMS_MESSAGES.codeWrong(result.wrong));
    return result;
  });
}

export async function saveSmsPreferences(db: Db, userId: string, preferences: SmsPreferences): Promise<void> {
  const updated = await db
    .update(smsNumbers)
    .set(preferences)
    .where(and(eq(smsNumbers.userId, userId), isNotNull(smsNumbers.confirmedAt)))
    .returning({ userId: smsNumbers.userId });
  if (updated.length === 0) throw new HttpError(400, "VALIDATION_ERROR", SMS_MESSAGES.noNumber);
}

/** Turns SMS off: the number is forgotten, and nothing still queued for it goes. */
export async function removeSmsNumber(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(smsNumbers).where(eq(smsNumbers.userId, userId));
    await tx
      .update(smsMessages)
      .set({ status: "cancelled", lastError: "not sent: SMS turned off" })
      .where(and(eq(smsMessages.userId, userId), inArray(smsMessages.status, ["pending", "failing"])));
  });
}

/**
 * The job that sends one SMS. Hubtel failing or silent: the row says so and the job is retried by
 * the queue; a row already sent is never sent again (two instances, or a retry after a crash).
 */
export function createSmsJobHandler(deps: {
  db: Db;
  sender: SmsSender;
  secret: string;
  appUrl: string;
  metrics: () => Pick<Metrics, "smsSent">;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return async (payload: unknown) => {
    const { messageId } = smsJobSchema.parse(payload);
    const [message] = await deps.db.select().from(smsMessages).where(eq(smsMessages.id, messageId));
    if (!message || message.status === "sent" || message.status === "cancelled") return;
    let content = message.content;
    // What is kept of the SMS once sent: a code's text without its code.
    let kept = message.content;
    if (message.kind === "code") {
      // A fresh code for each try: only its hash is kept, with its expiry and tries.
      const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, "0");
      const updated = await deps.db
        .update(smsNumbers)
        .set({
          codeHash: codeHash(deps.secret, message.userId ?? "", code),
          codeExpiresAt: new Date(now().getTime() + SMS_CODE_MINUTES * 60_000),
          codeTriesLeft: SMS_CODE_TRIES,
        })
        .where(
          and(
            eq(smsNumbers.userId, message.userId ?? ""),
            or(eq(smsNumbers.pendingPhone, message.to), and(eq(smsNumbers.phone, message.to), isNull(smsNumbers.confirmedAt))),
          ),
        )
        .returning({ userId: smsNumbers.userId });
      // The number was changed, confirmed or removed since: this code is not needed.
      if (updated.length === 0) {
        await deps.db.update(smsMessages).set({ status: "cancelled", lastError: "not sent: no longer needed" }).where(eq(smsMessages.id, messageId));
        return;
      }
      // The asker's code is made and kept all the same, so that their settings and their tries
      // answer as for any number; a number confirmed on another account is sent no code, only a
      // notice to its owner (docs/product.md, "SMS").
      const taken = await confirmedOnAnotherAccount(deps.db, message.to, message.userId ?? "");
      content = taken ? SMS_TEXTS.numberInUse(deps.appUrl) : SMS_TEXTS.code(code);
      kept = taken ? content : SMS_TEXTS.code("******");
    }
    try {
      const receipt = await deps.sender.send({ to: message.to, content });
      deps.metrics().smsSent(message.kind, "accepted");
      await deps.db
        .update(smsMessages)
        .set({
          status: "sent",
          sentAt: now(),
          attempts: message.attempts + 1,
          lastError: null,
          providerMessageId: receipt.messageId,
          rate: receipt.rate,
          content: kept,
        })
        .where(eq(smsMessages.id, messageId));
    } catch (error) {
      deps.metrics().smsSent(message.kind, "failed");
      const reason = error instanceof Error ? error.message : String(error);
      await deps.db
        .update(smsMessages)
        .set({ status: "failing", attempts: message.attempts + 1, lastError: reason.slice(0, 500) })
        .where(eq(smsMessages.id, messageId));
      throw error;
    }
  };
}

/** The SMS that have not gone through (yet), newest first, for the admin console. */
export async function failingSmsMessages(db: Db, limit = 50) {
  const rows = await db
    .select({
      id: smsMessages.id,
      kind: smsMessages.kind,
      to: smsMessages.to,
      attempts: smsMessages.attempts,
      lastError: smsMessages.lastError,
      createdAt: smsMessages.createdAt,
    })
    .from(smsMessages)
    .where(eq(smsMessages.status, "failing"))
    .orderBy(desc(smsMessages.createdAt))
    .limit(limit);
  const [total] = await db.select({ count: count() }).from(smsMessages).where(eq(smsMessages.status, "failing"));
  return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), total: total?.count ?? 0 };
}
