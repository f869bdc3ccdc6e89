// axe-core on a page as it stands, held to WCAG 2.1 A and AA. A failure names each rule, what it
// asks for and the elements that break it, so the report alone says what to fix.
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const WCAG_21_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Rules axe holds back as experimental that WCAG 2.1 asks for all the same: 2.5.3 Label in Name
 * (a control's visible words are in its name, so voice control can reach it).
 */
const EXPERIMENTAL_RULES = { "label-content-name-mismatch": { enabled: true } };
// (options() replaces what withTags() set: it comes first.)

export async function expectNoAxeViolations(page: Page, what: string) {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).options({ rules: EXPERIMENTAL_RULES }).withTags(WCAG_21_AA_TAGS).analyze();
  const report = results.violations
    .map((violation) => {
      const targets = violation.nodes
        .map((node) => `    ${node.target.join(" >> ")}\n      ${(node.failureSummary ?? "").replace(/\n\s*/g, " ")}`)
        .join("\n");
      return `${violation.id} (${violation.impact ?? "unknown impact"}): ${violation.help}\n  ${violation.helpUrl}\n${targets}`;
    })
    .join("\n");
  expect(results.violations.length, `axe violations on ${what}:\n${report}`).toBe(0);
}

/**
 * Waits for every animation and transition that ends (a toast fading in) to end: axe measures an
 * element's colours as they stand, and half-faded text is not what a reader is left with.
 */
async function animationsSettled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().endTime === Infinity),
  );
}
