import { addMonths } from "date-fns";
import { eq, sql } from "drizzle-orm";
import type { Plan } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { auditLog, users } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

export class UserNotFoundError extends HttpError {
  constructor(email: string) {
    super(404, "USER_NOT_FOUND", `No account found with the email ${email}.`);
  }
}

/**
 * Gives a user a plan. A paid plan runs for one calendar month from now; admin and legacyFree
 * never expire. The change and its audit entry are written together.
 */
export async function setUserPlan(
  db: Db,
  input: { email: string; plan: Plan; actorId: string | null; reason: string; now: Date },
): Promise<{ userId: string }> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${input.email})`)
      .for("update");
    if (!user) throw new UserNotFoundError(input.email);

    const paid = input.plan === "intermediate" || input.plan === "advanced";
    const next = {
      subscriptionPlan: input.plan,
      subscriptionStatus: paid ? ("active" as const) : ("inactive" as const),
      subscriptionStart: paid ? input.now : null,
      subscriptionEnd: paid ? addMonths(input.now, 1) : null,
    };
    await tx.update(users).set(next).where(eq(users.id, user.id));
    await tx.insert(auditLog).values({
      actorId: input.actorId,
      subjectUserId: user.id,
      action: "plan.set",
      reason: input.reason,
      changes: {
        from: { plan: user.subscriptionPlan, end: user.subscriptionEnd },
        to: { plan: next.subscriptionPlan, end: next.subscriptionEnd },
      },
    });
    return { userId: user.id };
  });
}
