// An announcement as an email, and the link in it that ends announcements for its reader
// (docs/admin.md, "Announcements"). The link's token is the learner's id signed with the server's
// secret: nothing is stored for it, and only this server can make one.
import { createHmac, timingSafeEqual } from "node:crypto";
import { ANNOUNCEMENT_MESSAGES } from "../../../shared/contracts/announcements.ts";
import { emailLayout } from "../../emails/layout.ts";
import type { MailMessage } from "../../integrations/mail.ts";

const TOKEN_PURPOSE = "announcements.unsubscribe";

function signature(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(`${TOKEN_PURPOSE}:${userId}`).digest("base64url");
}

/** The token of a learner's unsubscribe links: their id and its signature. It does not expire, as old emails' links must keep working. */
export function unsubscribeToken(secret: string, userId: string): string {
  return `${userId}.${signature(secret, userId)}`;
}

/** The learner a token names, or null when it is not one this server signed. */
export function userOfToken(secret: string, token: string): string | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const userId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(secret, userId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

/** A blank line starts a new paragraph; a single line break stays inside one. */
function paragraphsOf(body: string): string[] {
  return body
    .split(/\r?\n[ \t]*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

export type AnnouncementEmailInput = {
  to: string;
  name: string;
  userId: string;
  subject: string;
  body: string;
  appUrl: string;
  secret: string;
};

/**
 * The email: the message in the one layout, the learner's unsubscribe link at its foot, and the
 * headers mail programs read for their own Unsubscribe button, which posts to the one-click route
 * (RFC 8058) without opening a page.
 */
export function announcementEmail(input: AnnouncementEmailInput): MailMessage {
  const query = new URLSearchParams({ token: unsubscribeToken(input.secret, input.userId) });
  const message = emailLayout({
    to: input.to,
    name: input.name,
    subject: input.subject,
    heading: input.subject,
    paragraphs: paragraphsOf(input.body),
    action: { label: ANNOUNCEMENT_MESSAGES.visit, url: `${input.appUrl}/` },
    footer: { text: ANNOUNCEMENT_MESSAGES.footer, url: `${input.appUrl}/unsubscribe?${query}` },
  });
  return {
    ...message,
    headers: {
      "List-Unsubscribe": `<${input.appUrl}/api/announcements/one-click-unsubscribe?${query}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
