// The mail outbox (docs/decisions/023-mail-outbox.md): every email but the announcements is a row
// of mail_outbox, queued with the change that caused it, and one `mail.send` job that delivers it.
// A mail server that is down loses nothing: the job is tried again with the queue's back-off, and
// the rows that keep failing are what /api/health, /metrics and the console's "Email not sent"
// report. Each message goes at most once, however many instances run and whatever is retried:
// - the job claims its row (pending or failing -> sending) in one conditional UPDATE before it
//   delivers, so a second run, here or on another instance, finds the row taken and sends nothing;
// - the row is marked sent right after the mail server took it, so a retry of the job (its own
//   "done" lost to a crash or an outage) finds it sent;
// - a row left "sending" by a process that died mid-delivery may have gone: it is given up, never
//   sent again.
// A stored message may hold a one-time link (a verification or reset token), a credential: its text
// and HTML are blanked once it is sent or given up, and neither is ever logged nor shown.
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { Db, Tx } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";
import type { MailMessage, MailTransport } from "../integrations/mail.ts";
import { enqueueJob, type JobHandler } from "../jobs/queue.ts";

export const MAIL_JOB = "mail.send";

/**
 * Tries of one message: with the queue's back-off (30 s, 1 min, 2 min ... at most an hour apart)
 * ten tries span about three hours, longer than most relay outages, after which it is given up.
 */
export const MAIL_ATTEMPTS = 10;

/**
 * A row still "sending" this long after its claim was left by a process that died: a live sender
 * settles it within minutes (the SMTP client gives up on a connection after two).
 */
export const INTERRUPTED_AFTER_MS = 15 * 60_000;

export const MAIL_INTERRUPTED = "Interrupted while being sent: it may have gone out, so it is not sent again.";

const MAX_ERROR_LENGTH = 500;
const payloadSchema = z.object({ mailId: z.number() });
/** What is kept of a message once it is sent or given up: who, what about, never its content. */
const BLANKED = { text: "", html: "", headers: null };

export type Mailer = {
  /**
   * Queues the message. In `tx`, it goes once that transaction commits (and the job runner next
   * looks); on its own, it is committed at once and asked to go now. Never fails because the mail
   * server is down.
   */
  send(message: MailMessage, tx?: Tx): Promise<void>;
};

async function queueMail(tx: Tx, message: MailMessage): Promise<void> {
  const { to, subject, text, html, headers } = message;
  const [row] = await tx.insert(mailOutbox).values({ to, subject, text, html, headers: headers ?? null }).returning({ id: mailOutbox.id });
  if (!row) throw new Error("the mail outbox returned no row");
  await enqueueJob(tx, MAIL_JOB, { mailId: row.id }, { maxAttempts: MAIL_ATTEMPTS });
}

/** The mailer every feature sends through; `deliverNow` asks the job runner to run the mail jobs now. */
export function createMailer(options: { db: Db; deliverNow: () => void }): Mailer {
  return {
    async send(message, tx) {
      if (tx) return queueMail(tx, message);
      await options.db.transaction((own) => queueMail(own, message));
      options.deliverNow();
    },
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** The `mail.send` job: delivers one queued message, at most once. */
export function createMailDeliveryJob(deps: { db: Db; transport: MailTransport; now?: () => Date }): JobHandler {
  const { db, transport } = deps;
  const now = deps.now ?? (() => new Date());
  const row = (mailId: number) => eq(mailOutbox.id, mailId);

  /** The row could not be claimed: already settled, or another run's claim (live, or left by a dead process). */
  async function unclaimed(mailId: number, lastTry: boolean): Promise<void> {
    const [mail] = await db.select({ status: mailOutbox.status, claimedAt: mailOutbox.claimedAt }).from(mailOutbox).where(row(mailId));
    if (mail?.status !== "sending") return;
    const interrupted = !mail.claimedAt || mail.claimedAt.getTime() < now().getTime() - INTERRUPTED_AFTER_MS;
    if (!interrupted && !lastTry) throw new Error("the message is being sent by another run: its outcome is awaited");
    await db
      .update(mailOutbox)
      .set({ status: "failed", lastError: MAIL_INTERRUPTED, claimedAt: null, ...BLANKED })
      .where(and(row(mailId), eq(mailOutbox.status, "sending")));
  }

  return async (payload, tries) => {
    const { mailId } = payloadSchema.parse(payload);
    const lastTry = tries.attempts >= tries.maxAttempts;
    const [mail] = await db
      .update(mailOutbox)
      .set({ status: "sending", claimedAt: now(), attempts: sql`${mailOutbox.attempts} + 1` })
      .where(and(row(mailId), inArray(mailOutbox.status, ["pending", "failing"])))
      .returning();
    if (!mail) return unclaimed(mailId, lastTry);
    try {
      await transport.deliver({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.headers ? { headers: mail.headers } : {}) });
    } catch (error) {
      // Tried again by the queue, until its last try: then given up, and its content blanked.
      await db
        .update(mailOutbox)
        .set({ status: lastTry ? "failed" : "failing", lastError: errorText(error), claimedAt: null, ...(lastTry ? BLANKED : {}) })
        .where(and(row(mailId), eq(mailOutbox.status, "sending")));
      throw error;
    }
    // Sent, even if another run took it for interrupted meanwhile: the server has it.
    await db.update(mailOutbox).set({ status: "sent", sentAt: now(), lastError: null, claimedAt: null, ...BLANKED }).where(row(mailId));
  };
}

export type UnsentMailCounts = Record<"pending" | "sending" | "failing" | "failed", number>;

/** The messages not sent, by status (through the index of unsent rows): for /metrics and /api/health. */
export async function unsentMailCounts(db: Db): Promise<UnsentMailCounts> {
  const rows = await db
    .select({ status: mailOutbox.status, count: count() })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ["pending", "sending", "failing", "failed"]))
    .groupBy(mailOutbox.status);
  const counts: UnsentMailCounts = { pending: 0, sending: 0, failing: 0, failed: 0 };
  for (const { status, count: n } of rows) if (status !== "sent") counts[status] = n;
  return counts;
}

/**
 * The messages that have not gone through, newest first, for the console: being tried again
 * (failing) or given up (failed). Who, what about, how often and why; never their content.
 */
export async function unsentMail(db: Db, limit = 50) {
  const notSent = inArray(mailOutbox.status, ["failing", "failed"]);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        lastError: mailOutbox.lastError,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(notSent)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit),
    db.select({ n: count() }).from(mailOutbox).where(notSent),
  ]);
  return {
    total: total?.n ?? 0,
    messages: rows.map((mail) => ({ ...mail, status: mail.status === "failed" ? ("failed" as const) : ("failing" as const), createdAt: mail.createdAt.toISOString() })),
  };
}
