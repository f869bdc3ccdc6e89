import { describe, expect, it } from "vitest";
import { renderLessonNotes } from "./lesson-notes.ts";

describe("renderLessonNotes", () => {
  it("renders headings under the lesson's own, lists, tables, code and emphasis", () => {
    const html = renderLessonNotes(
      [
        "# Risk per trade",
        "Never risk more than **1%** of the account on *one* trade.",
        "",
        "- Set the stop first",
        "- Then the size",
        "",
        "| Account | 1% |",
        "| ---: | :--- |",
        "| 1,000 | 10 |",
        "",
        "`size = risk / stop`",
      ].join("\n"),
    );
    expect(html).toContain("<h2>Risk per trade</h2>");
    expect(html).toContain("<strong>1%</strong>");
    expect(html).toContain("<em>one</em>");
    expect(html).toContain("<li>Set the stop first</li>");
    expect(html).toContain('<th style="text-align:right">Account</th>');
    expect(html).toContain("<td style=\"text-align:left\">10</td>");
    expect(html).toContain("<code>size = risk / stop</code>");
  });

  it("shows raw HTML as text: no script, frame, style or event handler gets through", () => {
    const html = renderLessonNotes(
      '<script>alert(1)</script>\n\n<iframe src="https://evil.example"></iframe>\n\n<img src=x onerror=alert(1)>\n\n<b style="color:red" onclick="x()">bold</b>',
    );
    expect(html).not.toMatch(/<(script|iframe|img|b)[\s>]/);
    expect(html).not.toMatch(/<[^>]*\s(onerror|onclick|style)=/);
    expect(html).toContain("&lt;script&gt;");
  });

  it("drops javascript:, data: and vbscript: links, keeping their text", () => {
    for (const href of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "vbscript:msgbox(1)", "java\tscript:alert(1)"]) {
      const html = renderLessonNotes(`[click me](${href})`);
      expect(html).toContain("click me");
      expect(html).not.toMatch(/<a|href=/);
    }
  });

  it("opens outside links in a new tab without handing them the page, and keeps the academy's own", () => {
    expect(renderLessonNotes("[Paystack](https://paystack.com)")).toBe(
      '<p><a href="https://paystack.com" target="_blank" rel="noopener noreferrer">Paystack</a></p>',
    );
    expect(renderLessonNotes("[Programs](/program)")).toBe('<p><a href="/program">Programs</a></p>');
  });

  it("keeps images served by the academy, lazily loaded, and drops those of other hosts", () => {
    expect(renderLessonNotes("![Chart](/api/programs/beginner/modules/m/attachments/a)")).toBe(
      '<p><img src="/api/programs/beginner/modules/m/attachments/a" alt="Chart" loading="lazy" /></p>',
    );
    expect(renderLessonNotes("![Tracker](https://tracker.example/pixel.gif)")).toBe("<p></p>");
    expect(renderLessonNotes("![Tracker](//tracker.example/pixel.gif)")).toBe("<p></p>");
  });

  it("renders blank notes as nothing", () => {
    expect(renderLessonNotes("  \n ")).toBe("");
  });
});
