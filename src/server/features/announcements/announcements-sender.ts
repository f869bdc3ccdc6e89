// The announcement job (docs/admin.md, "Announcements"): works through an announcement's delivery
// rows, one learner at a time, so that
// - each learner is mailed at most once, however many workers run: a row is claimed (pending ->
//   sending, FOR UPDATE SKIP LOCKED) before its email is sent, and only a pending row is claimed;
// - a restart resumes it: the job stays in the queue until every row is settled, and a row a killed
//   process left "sending" is marked failed, never sent again, since its email may have gone out;
//   claiming one row at a time keeps that to the one email in flight;
// - every instance together keeps to ANNOUNCEMENT_MAILS_PER_MINUTE: the claims of the last minute
//   are counted under one advisory lock, and when they reach the limit the job queues its next
//   turn for when the oldest of them is a minute old, instead of holding the queue while it waits;
// - a mail server that cannot be reached puts the row back and tries again later, instead of
//   failing the whole audience one address at a time.
import { and, count, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import * as z from "zod/mini";
import { ANNOUNCEMENT_MESSAGES } from "../../../shared/contracts/announcements.ts";
import { ANNOUNCEMENT_SENDING_LOCK } from "../../db/advisory-locks.ts";
import type { Db } from "../../db/client.ts";
import { announcementDeliveries, announcements, announcementUnsubscribes, users } from "../../db/schema.ts";
import { MailNotConfiguredError, type MailTransport } from "../../integrations/mail.ts";
import { enqueueJob, type JobHandler } from "../../jobs/queue.ts";
import { announcementEmail } from "./announcement-email.ts";
import { ANNOUNCEMENT_JOB } from "./announcements.service.ts";

const WINDOW_MS = 60_000;
/**
 * A row still "sending" this long after its claim was left by a process that died: a live sender
 * settles a row within seconds (the SMTP client gives up on a connection after two minutes).
 */
export const INTERRUPTED_AFTER_MS = 10 * 60_000;
/** How long to wait before trying a mail server that could not be reached again. */
export const UNREACHABLE_RETRY_MS = 5 * 60_000;
const MAX_ERROR_LENGTH = 500;

const payloadSchema = z.object({ announcementId: z.uuid() });

export type AnnouncementSenderOptions = {
  db: Db;
  /** Delivered directly: the delivery rows are the announcement's own outbox. */
  transport: MailTransport;
  appUrl: string;
  /** Signs the unsubscribe links (the server's AUTH_SECRET). */
  secret: string;
  mailsPerMinute: number;
  now?: () => Date;
};

type Claim =
  | { kind: "delivery"; userId: string; email: string; name: string }
  | { kind: "skipped" }
  | { kind: "wait"; until: Date }
  | { kind: "none" };

const claimedSchema = z.object({
  rows: z.array(z.object({ userId: z.string(), email: z.string(), name: z.string(), unsubscribed: z.boolean() })),
});

/** Whether the mail server was never reached (or refused us as a client), so the message was not sent. */
function unreachable(error: unknown): boolean {
  if (error instanceof MailNotConfiguredError) return true;
  if (typeof error !== "object" || error === null) return false;
  // Nodemailer's errors: "CONN" is a failure of the connection itself; EAUTH/ENOAUTH a login refused.
  const command = "command" in error ? error.command : undefined;
  const code = "code" in error ? error.code : undefined;
  return command === "CONN" || code === "EAUTH" || code === "ENOAUTH";
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

export function createAnnouncementSender(options: AnnouncementSenderOptions): JobHandler {
  const { db, transport } = options;
  const now = options.now ?? (() => new Date());

  const deliveryKey = (announcementId: string, userId: string) =>
    and(eq(announcementDeliveries.announcementId, announcementId), eq(announcementDeliveries.userId, userId));

  /** Rows a dead process left "sending": failed, with the reason, and never sent again. */
  async function settleInterrupted(announcementId: string, at: Date) {
    await db
      .update(announcementDeliveries)
      .set({ status: "failed", error: ANNOUNCEMENT_MESSAGES.interrupted })
      .where(
        and(
          eq(announcementDeliveries.announcementId, announcementId),
          eq(announcementDeliveries.status, "sending"),
          lt(announcementDeliveries.claimedAt, new Date(at.getTime() - INTERRUPTED_AFTER_MS)),
        ),
      );
  }

  /** The next learner to mail, under the sending lock, or why there is none now. */
  function claimNext(announcementId: string, at: Date): Promise<Claim> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ANNOUNCEMENT_SENDING_LOCK.classId}, ${ANNOUNCEMENT_SENDING_LOCK.id})`);
      const windowStart = new Date(at.getTime() - WINDOW_MS);
      // Every announcement's claims of the last minute: those still sending, or finished within it.
      const [recent] = await tx
        .select({ n: count(), oldest: sql<Date | null>`min(${announcementDeliveries.claimedAt})`.mapWith(announcementDeliveries.claimedAt) })
        .from(announcementDeliveries)
        .innerJoin(announcements, eq(announcements.id, announcementDeliveries.announcementId))
        .where(
          and(
            or(eq(announcements.status, "running"), gt(announcements.finishedAt, windowStart)),
            gt(announcementDeliveries.claimedAt, windowStart),
          ),
        );
      if (recent && recent.n >= options.mailsPerMinute && recent.oldest) {
        return { kind: "wait", until: new Date(recent.oldest.getTime() + WINDOW_MS) };
      }
      const claimed = claimedSchema.parse(
        await tx.execute(sql`
          with next as (
            select ${announcementDeliveries.userId} as user_id from ${announcementDeliveries}
            where ${announcementDeliveries.announcementId} = ${announcementId} and ${announcementDeliveries.status} = 'pending'
            limit 1
            for update skip locked
          )
          update ${announcementDeliveries} set status = 'sending', claimed_at = ${at.toISOString()}::timestamptz
          from next, ${users} u
          where ${announcementDeliveries.announcementId} = ${announcementId}
            and ${announcementDeliveries.userId} = next.user_id and u.id = next.user_id
          returning u.id as "userId", u.email, u.name,
            exists (select 1 from ${announcementUnsubscribes} x where x.user_id = u.id) as unsubscribed`),
      );
      const [row] = claimed.rows;
      if (!row) return { kind: "none" };
      if (row.unsubscribed) {
        // Asked for no announcements after this one started: not sent, and not counted as sent.
        await tx
          .update(announcementDeliveries)
          .set({ status: "failed", claimedAt: null, error: ANNOUNCEMENT_MESSAGES.unsubscribedMeanwhile })
          .where(deliveryKey(announcementId, row.userId));
        return { kind: "skipped" };
      }
      return { kind: "delivery", userId: row.userId, email: row.email, name: row.name };
    });
  }

  /**
   * No row left to claim: done when none is being sent either. A row another worker is sending is
   * that worker's to settle, but should it die, this job must come back to mark the row failed and
   * close the announcement.
   */
  async function finish(announcementId: string, at: Date) {
    const [sending] = await db
      .select({ n: count(), oldest: sql<Date | null>`min(${announcementDeliveries.claimedAt})`.mapWith(announcementDeliveries.claimedAt) })
      .from(announcementDeliveries)
      .where(and(eq(announcementDeliveries.announcementId, announcementId), eq(announcementDeliveries.status, "sending")));
    if (sending && sending.n > 0) {
      const oldest = sending.oldest ?? at;
      await enqueueJob(db, ANNOUNCEMENT_JOB, { announcementId }, { runAt: new Date(oldest.getTime() + INTERRUPTED_AFTER_MS + 1_000) });
      return;
    }
    await db
      .update(announcements)
      .set({ status: "done", finishedAt: at })
      .where(and(eq(announcements.id, announcementId), eq(announcements.status, "running"), isNull(announcements.finishedAt)));
  }

  return async (payload) => {
    const { announcementId } = payloadSchema.parse(payload);
    const [announcement] = await db
      .select({ subject: announcements.subject, body: announcements.body, status: announcements.status })
      .from(announcements)
      .where(eq(announcements.id, announcementId));
    if (!announcement || announcement.status !== "running") return;
    await settleInterrupted(announcementId, now());

    for (;;) {
      const claim = await claimNext(announcementId, now());
      if (claim.kind === "none") return finish(announcementId, now());
      if (claim.kind === "wait") return enqueueJob(db, ANNOUNCEMENT_JOB, { announcementId }, { runAt: claim.until });
      if (claim.kind === "skipped") continue;

      const key = deliveryKey(announcementId, claim.userId);
      const message = announcementEmail({
        to: claim.email,
        name: claim.name,
        userId: claim.userId,
        subject: announcement.subject,
        body: announcement.body,
        appUrl: options.appUrl,
        secret: options.secret,
      });
      try {
        await transport.deliver(message);
      } catch (error) {
        if (unreachable(error)) {
          // Nothing left: the row goes back to pending, and the job comes back later.
          await db.update(announcementDeliveries).set({ status: "pending", claimedAt: null }).where(key);
          return enqueueJob(db, ANNOUNCEMENT_JOB, { announcementId }, { runAt: new Date(now().getTime() + UNREACHABLE_RETRY_MS) });
        }
        await db.update(announcementDeliveries).set({ status: "failed", error: errorText(error) }).where(key);
        continue;
      }
      // Sent even if another worker took it for interrupted meanwhile: the email went out.
      await db.update(announcementDeliveries).set({ status: "sent", sentAt: now(), email: claim.email, error: null }).where(key);
    }
  };
}
