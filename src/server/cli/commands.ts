// The operator commands, run either by the CLI on the database directly or, when the embedded
// database is held by a running server, by that server on the CLI's behalf.
import * as z from "zod/mini";
import { PLANS } from "../../shared/plans.ts";
import type { Db } from "../db/client.ts";
import { seedDatabase } from "../db/seed.ts";
import { expireSubscriptions } from "../features/billing/billing-expiry.ts";
import { reconcilePayments, type ReconcileCounts, type ReconcileDeps } from "../features/billing/billing-reconciliation.ts";
import { sweepRefunds, type RefundSweepCounts } from "../features/billing/billing-refund-sweep.ts";
import { setUserPlan } from "../features/users/users.service.ts";
import { deleteExpiredRecords, type RetentionCounts } from "../jobs/retention.ts";

export const operatorCommandSchema = z.discriminatedUnion("name", [
  z.object({ name: z.literal("migrate") }),
  z.object({ name: z.literal("seed") }),
  z.object({ name: z.literal("expire-subscriptions") }),
  z.object({ name: z.literal("reconcile-payments") }),
  z.object({ name: z.literal("prune") }),
  z.object({ name: z.literal("set-plan"), email: z.string().check(z.minLength(3)), plan: z.enum(PLANS) }),
]);
export type OperatorCommand = z.infer<typeof operatorCommandSchema>;

const RETENTION_LABELS: [keyof RetentionCounts, string][] = [
  ["doneJobs", "finished jobs"],
  ["failedJobs", "failed jobs"],
  ["rateLimits", "rate-limit counters"],
  ["loginFailures", "sign-in failures"],
  ["verifications", "expired tokens"],
  ["sessions", "expired sessions"],
  ["devMail", "development mails"],
  ["sentMail", "sent emails"],
  ["failedMail", "emails given up"],
];

function describeDeleted(counts: RetentionCounts): string {
  return `Deleted ${RETENTION_LABELS.map(([kind, label]) => `${counts[kind]} ${label}`).join(", ")}.`;
}

/** What a command needs beyond the database: Paystack, for reconcile-payments. */
export type OperatorServices = Omit<ReconcileDeps, "db">;

function describeSweptRefunds(counts: RefundSweepCounts): string {
  const asked = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const parts = [
    `${counts.counted + counts.updated} settled`,
    `${counts["never-reached"]} never reached Paystack (closed as failed)`,
    `${counts.pending} still pending at Paystack`,
    ...(counts.unavailable > 0 ? [`${counts.unavailable} not answered by Paystack (asked again next time)`] : []),
  ];
  return `Asked Paystack about ${asked} pending ${asked === 1 ? "refund" : "refunds"}: ${parts.join(", ")}.`;
}

function describeReconciled(counts: ReconcileCounts): string {
  const asked = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const parts = [
    `${counts.credited} credited`,
    `${counts.failed + counts.reversed} failed`,
    `${counts.abandoned} closed as abandoned`,
    `${counts.pending + counts["already-credited"]} left as they were`,
    ...(counts.mismatch > 0 ? [`${counts.mismatch} not matching the order (see the log)`] : []),
    ...(counts.unavailable > 0 ? [`${counts.unavailable} not answered by Paystack (asked again next time)`] : []),
  ];
  return `Asked Paystack about ${asked} pending ${asked === 1 ? "payment" : "payments"}: ${parts.join(", ")}.`;
}

/** Runs a command on an open, migrated database; resolves with what to tell the operator. */
export async function runOperatorCommand(db: Db, command: OperatorCommand, services?: OperatorServices): Promise<string> {
  switch (command.name) {
    case "migrate":
      return "Migrations applied.";
    case "seed": {
      const { seeded } = await seedDatabase(db);
      return seeded ? "Demo programs added." : "Already seeded: nothing changed.";
    }
    case "expire-subscriptions": {
      const count = await expireSubscriptions(db, new Date());
      return count === 1 ? "1 subscription ended." : `${count} subscriptions ended.`;
    }
    case "reconcile-payments":
      if (!services?.paystack) return "Payments are not set up (no Paystack key): nothing to reconcile.";
      return [
        describeReconciled(await reconcilePayments({ db, ...services }, new Date())),
        describeSweptRefunds(await sweepRefunds({ db, ...services }, new Date())),
      ].join("\n");
    case "prune":
      return describeDeleted(await deleteExpiredRecords(db, new Date()));
    case "set-plan":
      await setUserPlan(db, {
        email: command.email,
        plan: command.plan,
        actorId: null,
        reason: "operator command set-plan",
        now: new Date(),
      });
      return `${command.email} now has the ${command.plan} plan.`;
  }
}
