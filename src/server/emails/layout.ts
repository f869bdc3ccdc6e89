// Every email the product sends, in one layout: a plain-text part and a simple HTML part with the
// product's name, a greeting, paragraphs and one action. Whatever a feature puts in is escaped here.
import type { MailMessage } from "../integrations/mail.ts";

export const PRODUCT = "Trading Academy";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Footer = { text: string; url: string };

function layout(options: { heading: string; paragraphs: string[]; action: { label: string; url: string }; footer?: Footer }) {
  // pre-line: a line break inside a paragraph (an administrator's announcement) stays one.
  const paragraphs = options.paragraphs.map((p) => `<p style="margin:0 0 16px;white-space:pre-line">${escapeHtml(p)}</p>`).join("");
  const footer = options.footer
    ? `<p style="margin:16px 0 0;font-size:13px;color:#4b5565">${escapeHtml(options.footer.text)} <a href="${escapeHtml(options.footer.url)}" style="color:#1d4ed8">${escapeHtml(options.footer.url)}</a></p>`
    : "";
  return `<!doctype html><html lang="en"><body style="margin:0;background:#f5f7fb;font-family:Arial,Helvetica,sans-serif;color:#172033">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:10px">
<tr><td style="background:#0b1f3a;color:#ffffff;padding:16px 24px;font-size:18px;font-weight:bold;border-radius:10px 10px 0 0">${PRODUCT}</td></tr>
<tr><td style="padding:24px">
<h1 style="font-size:20px;margin:0 0 16px;color:#0b1f3a">${escapeHtml(options.heading)}</h1>
${paragraphs}
<p style="margin:24px 0"><a href="${escapeHtml(options.action.url)}" style="background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(options.action.label)}</a></p>
<p style="margin:0;font-size:13px;color:#4b5565">If the button does not work, copy this link into your browser:<br>${escapeHtml(options.action.url)}</p>
${footer}
</td></tr></table></td></tr></table></body></html>`;
}

function greeting(name: string) {
  return name ? `Hello ${name},` : "Hello,";
}

/**
 * A whole email: greeting, paragraphs and one action, as plain text and as HTML; a footer line
 * with a link closes it when given (an announcement's way to unsubscribe).
 */
export function emailLayout(input: {
  to: string;
  name: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footer?: Footer;
}): MailMessage {
  const paragraphs = [greeting(input.name), ...input.paragraphs];
  const footer = input.footer ? `\n\n${input.footer.text} ${input.footer.url}` : "";
  return {
    to: input.to,
    subject: input.subject,
    text: `${paragraphs.join("\n\n")}\n\n${input.action.label}: ${input.action.url}\n\n${PRODUCT}${footer}`,
    html: layout({ heading: input.heading, paragraphs, action: input.action, footer: input.footer }),
  };
}
