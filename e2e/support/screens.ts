// Screenshots at the widths the product is checked at (a 360 px phone and a 1280 px laptop), kept
// under test-results/screens for a person to look at; each width must not scroll sideways.
import { expect, type Page } from "@playwright/test";

export const SCREEN_WIDTHS = [360, 1280] as const;

export async function screens(page: Page, name: string) {
  // From the top: a full-page shot of a scrolled page paints the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}
