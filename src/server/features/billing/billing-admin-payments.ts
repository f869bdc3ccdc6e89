// The admin console's Payments tab: every learner's payments, filtered and paged in the database.
// Refunding one is in billing-refunds.ts; both routes are in billing.routes.ts, behind adminOnly.
import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { AdminPayment, Pagination, PaymentsQuery } from "../../../shared/contracts/admin.ts";
import type { Db } from "../../db/client.ts";
import { pagination, paging } from "../../db/paging.ts";
import { payments, users } from "../../db/schema.ts";

/**
 * Payments newest first, filtered by status and by when they were made (from inclusive, to
 * exclusive), in the database (through payments_created_idx).
 */
export async function listPayments(
  db: Db,
  query: { page: number; status?: PaymentsQuery["status"]; from?: string | undefined; to?: string | undefined },
): Promise<Pagination & { payments: AdminPayment[] }> {
  const { limit, offset } = paging(query.page);
  const where = and(
    query.status ? eq(payments.status, query.status) : undefined,
    query.from ? gte(payments.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(payments.createdAt, new Date(query.to)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: payments.id,
        userId: payments.userId,
        userEmail: payments.userEmail,
        userName: sql<string>`coalesce(${users.name}, '')`,
        kind: payments.kind,
        plan: payments.plan,
        amountMinor: payments.amountMinor,
        refundedMinor: payments.refundedMinor,
        currency: payments.currency,
        status: payments.status,
        reference: payments.reference,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  return { ...pagination(query.page, total), payments: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

