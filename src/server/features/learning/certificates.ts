// Certificates (docs/product.md, "Completion and certificates"): issued after the write that
// completes a program (or later, when owed), verified by anyone who has the number, revoked by an admin.
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import {
  CERTIFICATE_ALPHABET,
  CERTIFICATE_MESSAGES,
  formatCertificateDate,
  isCertificateId,
  normalizeCertificateId,
  type AdminCertificate,
  type PublicCertificate,
} from "../../../shared/contracts/certificates.ts";
import type { Completion } from "../../../shared/contracts/learning.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, certificates, users } from "../../db/schema.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { loadCatalog, type CatalogTrack } from "../catalog/catalog.seam.ts";
import { completionFrom, latestAnswerSchema, readCompletion, storedAttemptsSchema } from "./completion.ts";

export const CERTIFICATE_JOB = "certificate.issued";

/** "TA-" and ten characters of Crockford's base 32 (50 random bits): unguessable, easy to read out. */
export function newCertificateId(): string {
  // 256 is a multiple of 32, so each byte's low five bits are uniform.
  const code = [...randomBytes(10)].map((byte) => CERTIFICATE_ALPHABET[byte & 31]).join("");
  return `TA-${code}`;
}

/** What JavaScript's `trim()` removes, for the holder's name trimmed in SQL as it would be here. */
const WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

const issuedRow = z.object({ rows: z.array(z.object({ id: z.string() })) });

/**
 * After a learner's write has committed and the standing was read again (`completion`, what it
 * now is; `before`, what it was without the write): issues the certificate when the program is
 * complete and has no valid one, provided this write completed it or the learner was never
 * certified for it (a revoked certificate is not issued again by a write that changes nothing,
 * only when the learner completes the program anew, after an admin's reset). The certificate and
 * the job that announces it by email are written by one statement, so together or not at all, in
 * one round trip: on a busy server each round trip waits its turn (docs/performance.md, "Writes
 * in one round trip"). The unique partial index keeps one valid certificate per learner and
 * program when two writes complete it at once. Returns the completion as it now stands.
 */
export async function issueOnCompletion(
  db: Db,
  track: CatalogTrack,
  userId: string,
  before: Completion,
  completion: Completion,
): Promise<{ completion: Completion; issued: boolean }> {
  if (!completion.complete || completion.certificateId !== null) return { completion, issued: false };
  const programId = track.program.id;
  // Complete before this write too: certified before (revoked since), or by a write that completed
  // the program at the same moment and committed first.
  const neverCertified = before.complete
    ? sql`and not exists (select 1 from certificates c where c.user_id = u.id and c.program_id = ${programId})`
    : sql``;
  const result = await db.execute(sql`with certificate as (
      insert into certificates (id, user_id, holder_name, program_id, program_title)
      select ${newCertificateId()}, u.id, btrim(u.name, ${WHITESPACE}), ${programId}, ${track.program.title}
      from users u where u.id = ${userId} ${neverCertified}
      on conflict do nothing
      returning id
    ),
    job as (
      insert into jobs (kind, payload) select ${CERTIFICATE_JOB}, jsonb_build_object('certificateId', id) from certificate
    )
    select id from certificate`);
  const [issued] = issuedRow.parse(result).rows;
  // Nothing issued: what stands now is read again.
  if (!issued) return { completion: await readCompletion(db, track, userId), issued: false };
  return { completion: { ...completion, certificateId: issued.id }, issued: true };
}

type CertificateRow = typeof certificates.$inferSelect;

function publicView(row: CertificateRow): PublicCertificate {
  return {
    id: row.id,
    holderName: row.holderName,
    programTitle: row.programTitle,
    issuedAt: row.issuedAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

async function findCertificate(db: Db | Tx, input: string): Promise<CertificateRow | undefined> {
  const id = normalizeCertificateId(input);
  if (!isCertificateId(id)) return undefined;
  const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
  return row;
}

/** What the public verification page shows; 404 for a number that was never issued. */
export async function verifyCertificate(db: Db, id: string): Promise<PublicCertificate> {
  const row = await findCertificate(db, id);
  if (!row) throw new HttpError(404, "CERTIFICATE_NOT_FOUND", CERTIFICATE_MESSAGES.notFound);
  return publicView(row);
}

/** For the server's answer to the page /certificates/{id}: 404 when no such certificate exists. */
export async function certificatePageExists(db: Db, pathname: string): Promise<boolean> {
  const match = /^\/certificates\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return true;
  return (await findCertificate(db, decodeURIComponent(match[1]))) !== undefined;
}

/** A user's certificates, newest first, for the admin console. */
export async function userCertificates(db: Db, userId: string): Promise<AdminCertificate[]> {
  const rows = await db
    .select()
    .from(certificates)
    .where(eq(certificates.userId, userId))
    .orderBy(desc(certificates.issuedAt));
  return rows.map((row) => ({ ...publicView(row), programId: row.programId, revokeReason: row.revokeReason }));
}

/** An admin revokes a certificate: the revocation and its audit entry in one transaction. */
export async function revokeCertificate(
  db: Db,
  input: { id: string; actorId: string; reason: string },
  now: Date,
): Promise<AdminCertificate> {
  return db.transaction(async (tx) => {
    const row = await findCertificate(tx, input.id);
    if (!row) throw new HttpError(404, "CERTIFICATE_NOT_FOUND", CERTIFICATE_MESSAGES.notFound);
    const [revoked] = await tx
      .update(certificates)
      .set({ revokedAt: now, revokedBy: input.actorId, revokeReason: input.reason })
      .where(and(eq(certificates.id, row.id), isNull(certificates.revokedAt)))
      .returning();
    if (!revoked) throw new HttpError(409, "CERTIFICATE_ALREADY_REVOKED", CERTIFICATE_MESSAGES.alreadyRevoked);
    await tx.insert(auditLog).values({
      actorId: input.actorId,
      subjectUserId: row.userId,
      action: "certificate.revoked",
      reason: input.reason,
      changes: { certificate: row.id, program: row.programId },
    });
    return { ...publicView(revoked), programId: revoked.programId, revokeReason: revoked.revokeReason };
  });
}

const certificateJobSchema = z.object({ certificateId: z.string() });

/** The email announcing a new certificate, sent by the job queue. */
export function createCertificateJobHandler(deps: { db: Db; mailer: Mailer; appUrl: string }) {
  return async (payload: unknown) => {
    const { certificateId } = certificateJobSchema.parse(payload);
    const [row] = await deps.db
      .select({ certificate: certificates, user: users })
      .from(certificates)
      .innerJoin(users, eq(users.id, certificates.userId))
      .where(eq(certificates.id, certificateId));
    // Revoked or the account closed before the email went: nothing to announce.
    if (!row || row.certificate.revokedAt) return;
    const { certificate, user } = row;
    await deps.mailer.send(
      emailLayout({
        to: user.email,
        name: user.name,
        subject: `Your Trading Academy certificate: ${certificate.programTitle}`,
        heading: "You completed the program",
        paragraphs: [
          `Congratulations on completing the ${certificate.programTitle}. Your certificate is ready.`,
          `Certificate number: ${certificate.id}`,
          `Issued on: ${formatCertificateDate(certificate.issuedAt)}`,
          "Anyone you share its link with can check that it is genuine.",
        ],
        action: { label: "View my certificate", url: `${deps.appUrl}/certificates/${certificate.id}` },
      }),
    );
  };
}

// ---- Certificates owed ---------------------------------------------------------------------------
// A program can come to count a learner as complete without a write of theirs: an administrator
// removes the one video they had not watched, lowers the pass mark, changes the quiz or ticks the
// last video in Edit Progress; or the learner completed it before the academy issued certificates.
// A job issues those certificates, queued by every save of a program or its quiz
// (catalog-admin.service.ts), by Edit Progress (admin-users.service.ts) and, once, by migration 0013.

export const OWED_CERTIFICATES_JOB = "certificates.owed";

const standingRow = z.object({
  user_id: z.string(),
  data: z.unknown(),
  answers: z.nullable(z.array(latestAnswerSchema)),
  certificate_id: z.nullable(z.string()),
  attempts: z.nullable(storedAttemptsSchema),
});
const standingRows = z.object({ rows: z.array(standingRow) });

/**
 * Issues a certificate to each learner (or to the one given) who stands complete on the track and
 * was never certified for it (a revoked certificate is not issued again). The candidates (every
 * video watched, never certified) are read `pageSize` at a time with their standing, one statement
 * a page, and checked in memory by the usual rule; only those complete are written, each in its
 * own transaction. Returns how many were issued.
 */
export async function issueOwedCertificates(
  db: Db,
  track: CatalogTrack,
  { userId, pageSize = 500 }: { userId?: string; pageSize?: number } = {},
): Promise<number> {
  if (track.modules.length === 0) return 0;
  const programId = track.program.id;
  const everyVideoWatched = JSON.stringify(Object.fromEntries(track.modules.map((module) => [module.id, true])));
  let issued = 0;
  let after = "";
  for (;;) {
    const page = standingRows.parse(
      await db.execute(sql`select up.user_id, s.data, s.answers, s.certificate_id, s.attempts
        from user_progress up, learner_standing(up.user_id, up.program_id) s
        where up.program_id = ${programId} and up.user_id > ${after}
          ${userId === undefined ? sql`` : sql`and up.user_id = ${userId}`}
          and up.data @> ${everyVideoWatched}::jsonb
          and not exists (select 1 from certificates c where c.user_id = up.user_id and c.program_id = up.program_id)
        order by up.user_id
        limit ${pageSize}`),
    ).rows;
    for (const row of page) {
      const completion = completionFrom(track, {
        data: row.data,
        answers: row.answers ?? [],
        certificateId: row.certificate_id,
        attempts: row.attempts ?? [],
      });
      // Complete before as now: issueOnCompletion issues only to a learner never certified, checked
      // again in its own transaction.
      if (completion.complete && (await issueOnCompletion(db, track, row.user_id, completion, completion)).issued) issued += 1;
    }
    const last = page.at(-1);
    if (!last || page.length < pageSize) return issued;
    after = last.user_id;
  }
}

const owedJobSchema = z.object({ track: z.string(), userId: z.string().optional() });

/** Queues the job for a program (`track`: its id), or for one learner on it, in the caller's transaction. */
export async function queueOwedCertificates(tx: Tx, payload: { track: string; userId?: string }): Promise<void> {
  await enqueueJob(tx, OWED_CERTIFICATES_JOB, payload);
}

/** The job: the track as the database holds it now (not a cached catalog), if it still exists. */
export function createOwedCertificatesJobHandler(deps: { db: Db }) {
  return async (payload: unknown) => {
    const { track, userId } = owedJobSchema.parse(payload);
    const current = (await loadCatalog(deps.db)).tracks.get(track);
    if (current) await issueOwedCertificates(deps.db, current, { userId });
  };
}

