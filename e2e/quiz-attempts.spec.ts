// Quiz attempts (docs/product.md, "Quiz attempts"): a learner whose attempt does not reach the pass
// mark sees the score, the explanation of what they answered and the questions to review, is told
// how long to wait, and starts a new attempt, its options in a new order, only once the wait the
// admin set is over. The admin sets the wait to its lowest, one minute, and puts it back. The
// minute passes without being waited for: the server's record of the attempt is moved a minute
// back (dev/time-travel) and the browser's clock a minute on.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { E2E_BASE_URL } from "../playwright.config.ts";

const EXPLANATION = "Support is where buyers have stepped in before: B. It is not a floor the price can never break.";

async function signedInAdmin(context: BrowserContext, request: Parameters<typeof signedInAccount>[1], email: string) {
  await signedInAccount(context, request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");
}

/** Manage Quiz for the Beginner Program: question 2's explanation and the wait before a new attempt. */
async function setBeginnerQuiz(page: Page, { explanation, wait }: { explanation: string; wait: string }) {
  await page.goto("/admin?tab=programs");
  await page.getByRole("row").filter({ hasText: "Beginner Program" }).getByRole("button", { name: "Manage Quiz" }).click();
  const modal = page.getByRole("dialog", { name: "Manage Quiz for Beginner Program" });
  await modal.getByRole("button", { name: "Edit question 2" }).click();
  await modal.getByLabel("Explanation (optional)").fill(explanation);
  await modal.getByRole("button", { name: "Update Question" }).click();
  await modal.getByLabel("Wait before a new attempt (minutes)").fill(wait);
  await modal.getByRole("button", { name: "Save Quiz" }).click();
  await expect(page.getByText("Quiz saved successfully!", { exact: true })).toBeVisible();
}

test("a learner fails an attempt, sees the score and explanation, and a new attempt opens only after the wait", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  await setBeginnerQuiz(page, { explanation: EXPLANATION, wait: "1" });

  const learnerContext = await browser.newContext();
  // The browser's clock runs as usual until the test moves it on.
  await learnerContext.clock.install();
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  await signedInAccount(learnerContext, request, { email: learnerEmail });
  const learner = await learnerContext.newPage();
  try {
    await learner.goto("/program/beginner");
    await learner.getByRole("button", { name: "Mark as Watched" }).click();
    const question = (n: number) => learner.locator(".quiz-question").nth(n - 1);
    await expect(learner.getByText("To pass, get 3 of 3 right on your first try at each question.")).toBeVisible();

    // Right, wrong then right (the first answer is the one scored), wrong.
    await question(1).getByRole("button", { name: /^A\)/ }).click();
    await expect(question(1).getByRole("status")).toHaveText("Correct");
    await question(2).getByRole("button", { name: /^A\)/ }).click();
    await expect(question(2).getByRole("status")).toHaveText("Incorrect");
    await expect(question(2).getByText(EXPLANATION)).toBeVisible();
    await expect(question(1).locator(".quiz-explanation")).toHaveCount(0);
    await question(2).getByRole("button", { name: /^B\)/ }).click();
    await expect(question(2).getByRole("status")).toHaveText("Correct");
    await question(3).getByRole("button", { name: /^A\)/ }).click();
    await expect(question(3).getByRole("status")).toHaveText("Incorrect");

    // The attempt's score, what to review, and the wait.
    const outcome = learner.getByRole("region", { name: /^You scored/ });
    await expect(outcome.getByRole("heading")).toHaveText("You scored 1 of 3. You need 3 to pass.");
    await expect(outcome.getByRole("listitem")).toHaveText([/^Question 2: What is a support level\?/, /^Question 3: /]);
    // Counted down from the minute (a loaded machine may take a few seconds to get here).
    const waitLeft = /^You can start a new attempt in (1 minute|\d+ seconds?)\.$/;
    await expect(outcome.getByRole("status")).toHaveText(waitLeft);
    const history = learner.getByRole("table", { name: "Your attempts" });
    await expect(history.getByRole("row").nth(1)).toContainText(/1\s*1 of 3.*Not passed/);
    await expectNoAxeViolations(learner, "a failed quiz attempt");

    // Too soon: the server refuses, saying how long is left.
    const firstOrder = await question(1).getByRole("button").allTextContents();
    const refusal = learner.waitForResponse((response) => response.url().endsWith("/quiz/attempts"));
    await outcome.getByRole("button", { name: "Start a new attempt" }).click();
    const refused = await refusal;
    expect(refused.status()).toBe(429);
    const { error } = (await refused.json()) as { error: { message: string } };
    expect(error.message).toMatch(waitLeft);
    await expect(outcome.getByRole("status")).toHaveText(error.message);
    await expect(learner.getByText(/^Attempt 2\./)).toHaveCount(0);

    // Once the minute is over, a new attempt: no answers yet, the options in a new order.
    const moved = await request.post("/dev/time-travel/quiz-sittings", {
      data: { email: learnerEmail, minutes: 1 },
      headers: { origin: E2E_BASE_URL },
    });
    expect(await moved.json()).toEqual({ moved: 1 });
    await learner.clock.fastForward("01:00");
    await expect(outcome.getByRole("status")).toHaveText("You can start a new attempt now. The options will be in a new order.");
    await outcome.getByRole("button", { name: "Start a new attempt" }).click();
    await expect(learner.getByText(/^Attempt 2\./)).toBeFocused();
    await expect(learner.locator(".quiz-question [role=status]:not(:empty)")).toHaveCount(0);
    await expect(learner.locator(".quiz-explanation")).toHaveCount(0);
    const secondOrder = await question(1).getByRole("button").allTextContents();
    expect([...secondOrder].sort()).toEqual([...firstOrder].sort());
    expect(secondOrder).not.toEqual(firstOrder);

    // Every first answer right: passed.
    for (const [n, letter] of [[1, "A"], [2, "B"], [3, "C"]] as const) {
      await question(n).getByRole("button", { name: new RegExp(`^${letter}\\)`) }).click();
      await expect(question(n).getByRole("status")).toHaveText("Correct");
    }
    await expect(learner.getByText("You scored 3 of 3. You passed the quiz.")).toBeVisible();
    await expect(history.getByRole("row")).toHaveCount(3);
    await expect(history.getByRole("row").nth(2)).toContainText(/2\s*3 of 3.*Passed/);
    await expectNoAxeViolations(learner, "a passed quiz attempt");
  } finally {
    await learnerContext.close();
    await setBeginnerQuiz(page, { explanation: "", wait: "10" });
  }
});
