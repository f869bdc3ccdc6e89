// axe-core on a page as it stands, held to WCAG 2.1 A and AA, and then our own, stricter check of
// 2.5.3 Label in Name (docs/accessibility.md). A failure names each rule, what it asks for and the
// elements that break it, so the report alone says what to fix.
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
  // An experimental rule an axe release or an option left out would pass unseen: each must be in
  // one of the four lists axe answers with (inapplicable too: it ran and found nothing to check).
  const evaluated = new Set([...results.passes, ...results.incomplete, ...results.inapplicable, ...results.violations].map((rule) => rule.id));
  for (const rule of Object.keys(EXPERIMENTAL_RULES)) {
    expect(evaluated.has(rule), `axe did not evaluate ${rule} on ${what} (axe ${results.testEngine.version})`).toBe(true);
  }
  const report = results.violations
    .map((violation) => {
      const targets = violation.nodes
        .map((node) => `    ${node.target.join(" >> ")}\n      ${(node.failureSummary ?? "").replace(/\n\s*/g, " ")}`)
        .join("\n");
      return `${violation.id} (${violation.impact ?? "unknown impact"}): ${violation.help}\n  ${violation.helpUrl}\n${targets}`;
    })
    .join("\n");
  expect(results.violations.length, `axe violations on ${what}:\n${report}`).toBe(0);
  await expectNamesStartWithVisibleWords(page, what);
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

/** The controls a person names to voice control: links, buttons and their kin. */
const CONTROLS = [
  "a[href]",
  "button",
  "summary",
  'input[type="button"]',
  'input[type="submit"]',
  'input[type="reset"]',
  ...["link", "button", "tab", "menuitem", "menuitemcheckbox", "menuitemradio"].map((role) => `[role="${role}"]`),
].join(", ");

const MARK = "data-e2e-name-check";

/** What the name check reads of the DevTools protocol's DOM.Node. */
type DomNode = { backendNodeId: number; attributes?: string[]; children?: DomNode[] };

type Control = { index: number; html: string; visibleText: string };

/**
 * 2.5.3 Label in Name, held more strictly than axe holds it (axe looks only at controls named by
 * aria-label or aria-labelledby, and is content when the visible words appear anywhere in the
 * name): every visible link and button's accessible name, as the browser computes it, starts with
 * the words it shows, so saying what one reads reaches the control. Whitespace and case do not
 * count, nor do symbols such as arrows (Unicode's S categories); punctuation does. A control that
 * shows no words (an icon) is not held to it. The words shown are the control's rendered text:
 * text hidden only from assistive technology (aria-hidden) is still shown; text hidden visually
 * (the visually-hidden class) is not, and neither are images (svg, img), whose words are their
 * alternative text.
 */
async function expectNamesStartWithVisibleWords(page: Page, what: string) {
  const controls = await page.evaluate(markControls, { selector: CONTROLS, mark: MARK });
  let names: Map<number, string | null>;
  try {
    names = await accessibleNames(page);
  } finally {
    await page.evaluate((mark) => {
      for (const element of Array.from(document.querySelectorAll(`[${mark}]`))) element.removeAttribute(mark);
    }, MARK);
  }
  const mismatches = controls.flatMap((control) => {
    const shown = comparable(control.visibleText);
    if (!shown) return [];
    const name = names.get(control.index);
    if (name === undefined) return [`  ${control.html}\n    shows "${control.visibleText}" but was not found in the accessibility tree`];
    // Left out of the accessibility tree (presentational): nothing names it.
    if (name === null || startsWithWords(comparable(name), shown)) return [];
    return [`  ${control.html}\n    shows "${control.visibleText}" but is named "${name}"`];
  });
  expect(mismatches, `controls on ${what} whose names do not start with the words they show (WCAG 2.5.3):\n${mismatches.join("\n")}`).toEqual([]);
}

function comparable(text: string): string {
  return text
    .replace(/\p{S}/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

function startsWithWords(name: string, shown: string): boolean {
  if (!name.startsWith(shown)) return false;
  // "Sign" does not start "Signing out": the shown words end where a word of the name ends.
  const next = name.charAt(shown.length);
  return next === "" || !/[\p{L}\p{N}]/u.test(next) || !/[\p{L}\p{N}]$/u.test(shown);
}

/**
 * In the page: marks each visible control with its index and answers its opening tag and the
 * words it shows.
 */
function markControls({ selector, mark }: { selector: string; mark: string }): Control[] {
  function visuallyHidden(element: Element, style: CSSStyleDeclaration): boolean {
    if (style.display === "none" || Number(style.opacity) === 0) return true;
    if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") return true;
    const rect = element.getBoundingClientRect();
    const clipsOverflow = style.overflowX !== "visible" || style.overflowY !== "visible";
    return clipsOverflow && (rect.width <= 1 || rect.height <= 1);
  }
  /** CSS-generated words (content: "..."), which a person reads as any other. */
  function generated(element: Element, pseudo: "::before" | "::after"): string {
    const content = getComputedStyle(element, pseudo).content;
    const quoted = /^"(.*)"$/s.exec(content);
    return quoted ? (quoted[1] ?? "") : "";
  }
  /** The words `control` shows, in order, apart where the screen shows them apart. */
  function shownText(control: HTMLElement): string {
    let text = generated(control, "::before");
    let last: DOMRect | undefined;
    const add = (words: string, rects: DOMRect[]) => {
      const first = rects[0];
      // Two runs of text with no space between them still read as two words when a margin or a
      // line break sets them apart, though the browser's name may run them together.
      if (first && last && !/^\s/.test(words) && !/\s$/.test(text)) {
        const otherLine = Math.abs(first.top - last.top) > first.height / 2;
        if (otherLine || first.left - last.right > 2) text += " ";
      }
      text += words;
      last = rects.at(-1) ?? last;
    };
    const walk = (node: Node) => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) {
          const parent = child.parentElement;
          if (!parent || getComputedStyle(parent).visibility !== "visible") continue;
          const range = document.createRange();
          range.selectNodeContents(child);
          add(child.textContent ?? "", Array.from(range.getClientRects()).filter((rect) => rect.width > 0));
        } else if (child instanceof HTMLElement) {
          // A picture, a line break, or a place a line may break (<wbr>, which Chromium names as a space).
          if (child instanceof HTMLImageElement || child instanceof HTMLBRElement || child.localName === "wbr") {
            text += " ";
            continue;
          }
          const style = getComputedStyle(child);
          if (visuallyHidden(child, style)) continue;
          // Anything but an inline box (a block, a flex item, an inline-block) stands apart from
          // its neighbours on the screen.
          const apart = style.display !== "inline" && style.display !== "contents";
          text += apart ? " " : "";
          text += generated(child, "::before");
          walk(child);
          text += generated(child, "::after");
          text += apart ? " " : "";
        }
        // svg and other elements outside HTML are pictures: their words are their alternative text.
      }
    };
    walk(control);
    return text + generated(control, "::after");
  }

  // A modal dialog leaves the page behind it out of reach, and out of the accessibility tree.
  const modal = document.querySelector("dialog:modal");
  const controls: Control[] = [];
  for (const element of Array.from(document.querySelectorAll(selector))) {
    if (!(element instanceof HTMLElement) || element.closest('[aria-hidden="true"], [inert]')) continue;
    if (modal && !modal.contains(element)) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) continue;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) continue;
    const style = getComputedStyle(element);
    if (visuallyHidden(element, style)) continue;
    const visibleText =
      element instanceof HTMLInputElement
        ? element.value
        : shownText(element);
    const html = element.outerHTML;
    controls.push({ index: controls.length, html: html.slice(0, html.indexOf(">") + 1), visibleText: visibleText.replace(/\s+/g, " ").trim() });
    element.setAttribute(mark, String(controls.length - 1));
  }
  return controls;
}

/**
 * The accessible name Chromium gives each marked control (null for one left out of the
 * accessibility tree), by the control's index.
 */
async function accessibleNames(page: Page): Promise<Map<number, string | null>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const indexOf = new Map<number, number>();
    const walk = (node: DomNode) => {
      const attributes = node.attributes ?? [];
      for (let i = 0; i < attributes.length; i += 2) {
        if (attributes[i] === MARK) indexOf.set(node.backendNodeId, Number(attributes[i + 1]));
      }
      for (const child of node.children ?? []) walk(child);
    };
    walk(root);
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const names = new Map<number, string | null>();
    for (const node of nodes) {
      const index = node.backendDOMNodeId === undefined ? undefined : indexOf.get(node.backendDOMNodeId);
      if (index === undefined) continue;
      names.set(index, node.ignored ? null : String(node.name?.value ?? ""));
    }
    return names;
  } finally {
    await cdp.detach();
  }
}
