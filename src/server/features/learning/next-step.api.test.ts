// The next step on the home page (docs/product.md, "Home and program list"): the upgrade once a
// free learner has completed what their plan opens, the program just bought after a payment, and a
// certified program kept complete as the completion rule keeps it.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { userProgress } from "../../db/schema.ts";
import { SEED_PROGRAMS } from "../../db/seed-content.ts";
import { ipAllocator, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { useBillingApp } from "../../testing/billing.ts";
import { seededModuleIds } from "../../testing/catalog.ts";

const nextIp = ipAllocator(178);
const USERS = { finisher: {} } satisfies Record<string, TestUserPlan>;
const beginner = SEED_PROGRAMS.find((program) => program.id === "beginner");

describe("the next step", () => {
  const { t, api, user, buy, paidAtPaystack } = useBillingApp(nextIp, USERS);
  const progress = async (who: TestUser) => {
    const response = await api.call(who, { method: "GET", url: "/api/progress" });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ programs: Record<string, { complete: boolean; percent: number }>; next: unknown }>();
  };

  it("a free learner who completes Beginner is offered the upgrade; once paid, the Intermediate program; a certified program stays complete", async () => {
    const who = user("finisher");
    const moduleId = await seededModuleIds(t);
    expect((await progress(who)).next).toEqual({ kind: "start", programId: "beginner", bought: false });

    const lessons = beginner?.modules.length ?? 0;
    for (let index = 0; index < lessons; index++) {
      const url = `/api/programs/beginner/modules/${moduleId("beginner", index)}/watched`;
      expect((await api.call(who, { method: "POST", url, payload: {} })).statusCode).toBe(200);
    }
    for (const [questionIndex, question] of (beginner?.quiz.questions ?? []).entries()) {
      const payload = { questionIndex, option: question.answer };
      expect((await api.call(who, { method: "POST", url: "/api/programs/beginner/quiz/answers", payload })).statusCode).toBe(200);
    }
    const completed = await progress(who);
    expect(completed.programs.beginner).toMatchObject({ complete: true, percent: 100 });
    expect(completed.next).toEqual({ kind: "upgrade", plan: "intermediate", programId: "intermediate" });

    const reference = await buy(who, "intermediate");
    await paidAtPaystack(reference);
    expect((await api.verify(who, reference)).statusCode).toBe(200);
    expect((await progress(who)).next).toEqual({ kind: "start", programId: "intermediate", bought: true });

    // A lesson no longer counted as watched (as when one is published after the certificate): the
    // certificate keeps Beginner complete, as the track itself says (completionFrom).
    await t.database.db
      .update(userProgress)
      .set({ data: { [moduleId("beginner", 0)]: true } })
      .where(and(eq(userProgress.userId, who.id), eq(userProgress.programId, "beginner")));
    const after = await progress(who);
    expect(after.programs.beginner).toMatchObject({ complete: true });
    const track = (await api.call(who, { method: "GET", url: "/api/programs/beginner" })).json<{ completion: { complete: boolean } }>();
    expect(track.completion.complete).toBe(true);
  });
});
