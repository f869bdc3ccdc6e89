// Deleting an account (docs/accounts.md, "Deleting an account"): the financial records and the
// audit log are kept, anonymised, as the law on financial records requires; certificates stay
// verifiable as revoked; everything else about the person is removed. One transaction.
import { APIError } from "better-auth/api";
import { and, count, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { ACCOUNT_MESSAGES, DELETED_ACCOUNT_EMAIL } from "../../../shared/contracts/account-settings.ts";
import { clearLoginFailures } from "../../auth/login-lockout.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, certificates, contacts, journalEntries, journalScreenshots, payments, users, verifications } from "../../db/schema.ts";
import { emailLayout, PRODUCT } from "../../emails/layout.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { AttachmentStore } from "../../storage/attachment-store.ts";

export const ACCOUNT_DELETED_JOB = "accounts.deleted";

/** What a revoked certificate of a deleted account says (docs/decisions/011-deleted-accounts.md). */
export const CLOSED_ACCOUNT_REVOKE_REASON = "The holder closed their account";

/** What stands for the deleted person in the audit log's texts. */
const REDACTED = "[deleted account]";

type DeletedUser = { id: string; email: string; name: string };

/** A refusal inside the auth library's delete endpoint: its status, and a message meant to be shown. */
function refusal(code: string, message: string): APIError {
  return new APIError("CONFLICT", { code, message });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Replaces the person's email and full name in every string of an audit entry (not in its keys,
 * which are the entry's structure): the email anywhere, the name as a whole word of two letters or
 * more.
 */
export function redactPerson(value: unknown, person: { email: string; name: string }): unknown {
  const patterns = [escapeRegExp(person.email)];
  const name = person.name.trim();
  if (name.length >= 2) patterns.push(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`);
  const pattern = new RegExp(patterns.join("|"), "giu");
  const redact = (node: unknown): unknown => {
    if (typeof node === "string") return node.replace(pattern, REDACTED);
    if (Array.isArray(node)) return node.map(redact);
    if (typeof node === "object" && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, redact(child)]));
    }
    return node;
  };
  return redact(value);
}

/** The person's audit entries, kept with their texts anonymised; the ids go to null with the user row. */
async function redactAuditEntries(tx: Tx, user: DeletedUser): Promise<void> {
  const entries = await tx
    .select({ id: auditLog.id, reason: auditLog.reason, changes: auditLog.changes })
    .from(auditLog)
    .where(or(eq(auditLog.subjectUserId, user.id), eq(auditLog.actorId, user.id)));
  for (const entry of entries) {
    const reason = redactPerson(entry.reason, user) as string;
    const changes = redactPerson(entry.changes, user);
    if (reason === entry.reason && JSON.stringify(changes) === JSON.stringify(entry.changes)) continue;
    await tx.update(auditLog).set({ reason, changes }).where(eq(auditLog.id, entry.id));
  }
}

/**
 * Refuses while something must finish first: a payment Paystack has not settled (a closed checkout
 * is settled as it closes, the rest when this page opens or by reconciliation: docs/accounts.md),
 * or the last administrator leaving the console without one.
 */
async function checkDeletable(tx: Tx, user: { id: string; subscriptionPlan: string | null }): Promise<void> {
  const [pending] = await tx
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.userId, user.id), eq(payments.status, "pending")));
  if (pending && pending.n > 0) throw refusal("PAYMENT_PENDING", ACCOUNT_MESSAGES.deletePaymentPending);
  if (user.subscriptionPlan !== "admin") return;
  // Every admin row locked, so two administrators deleting themselves at once cannot both pass.
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.subscriptionPlan, "admin")).for("update");
  if (admins.length <= 1) throw refusal("LAST_ADMIN", ACCOUNT_MESSAGES.deleteLastAdmin);
}

/**
 * Deletes the account in one transaction, once the auth library has checked the password (or the
 * recent sign-in): the users row goes last, and with it, through the foreign keys, its sessions,
 * sign-in methods, progress, quiz answers, waitlist place, reminders, questions and answers,
 * mentorship requests, the SMS number with its messages and the trading journal with its
 * screenshots. Then the confirmation mail goes out, by a job queued in the same transaction, and a
 * bucket forgets the screenshots it held.
 */
export async function deleteAccount(db: Db, store: AttachmentStore, userId: string, now: Date): Promise<void> {
  const screenshotKeys = await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!user) return [];
    await checkDeletable(tx, user);
    const email = user.email.toLowerCase();

    await tx.update(payments).set({ userEmail: DELETED_ACCOUNT_EMAIL }).where(eq(payments.userId, user.id));
    await redactAuditEntries(tx, user);
    await tx
      .update(certificates)
      .set({ revokedAt: now, revokeReason: CLOSED_ACCOUNT_REVOKE_REASON })
      .where(and(eq(certificates.userId, user.id), isNull(certificates.revokedAt)));
    await tx.update(certificates).set({ holderName: "" }).where(eq(certificates.userId, user.id));
    await tx.delete(contacts).where(sql`lower(${contacts.email}) = ${email}`);
    await tx.delete(verifications).where(eq(verifications.value, user.id));
    await clearLoginFailures(tx, email);
    const screenshots = await tx
      .select({ storageKey: journalScreenshots.storageKey })
      .from(journalScreenshots)
      .innerJoin(journalEntries, eq(journalEntries.id, journalScreenshots.entryId))
      .where(and(eq(journalEntries.userId, user.id), isNotNull(journalScreenshots.storageKey)));
    await tx.delete(users).where(eq(users.id, user.id));
    await enqueueJob(tx, ACCOUNT_DELETED_JOB, { email: user.email, name: user.name });
    return screenshots.flatMap((shot) => (shot.storageKey ? [shot.storageKey] : []));
  });
  if (screenshotKeys.length > 0) await store.discard(screenshotKeys);
}

/** The security mail that confirms a deletion, to the address the account had. */
export function accountDeletedEmail(input: { to: string; name: string; appUrl: string }) {
  return emailLayout({
    to: input.to,
    name: input.name,
    subject: `Your ${PRODUCT} account has been deleted`,
    heading: "Your account has been deleted",
    paragraphs: [
      `Your ${PRODUCT} account and what it held (your progress, quiz answers, questions, trading journal and sign-in methods) have been deleted.`,
      "Records of your payments are kept without your name or email, as the law on financial records requires, and your certificates now show as revoked.",
      "If you did not delete your account, contact us at once.",
    ],
    action: { label: "Contact us", url: `${input.appUrl}/contact` },
  });
}

const deletedJobSchema = z.object({ email: z.string(), name: z.string() });

export function createAccountJobHandlers(deps: { mailer: Mailer; appUrl: string }) {
  return {
    async deleted(payload: unknown) {
      const { email, name } = deletedJobSchema.parse(payload);
      await deps.mailer.send(accountDeletedEmail({ to: email, name, appUrl: deps.appUrl }));
    },
  };
}
