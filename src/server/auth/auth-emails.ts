// The mails of signing up and signing in: verifying an email and resetting a password.
import { emailLayout, PRODUCT } from "../emails/layout.ts";
import type { MailMessage } from "../integrations/mail.ts";

export function verificationEmail(input: { to: string; name: string; url: string }): MailMessage {
  return emailLayout({
    to: input.to,
    name: input.name,
    subject: `Verify your email for ${PRODUCT}`,
    heading: "Verify your email",
    paragraphs: [
      `Please confirm your email address to finish creating your ${PRODUCT} account.`,
      "The link works for 24 hours. If you did not sign up, you can ignore this email.",
    ],
    action: { label: "Verify your email", url: input.url },
  });
}

export function passwordResetEmail(input: { to: string; name: string; url: string }): MailMessage {
  return emailLayout({
    to: input.to,
    name: input.name,
    subject: `Reset your ${PRODUCT} password`,
    heading: "Reset your password",
    paragraphs: [
      `Someone asked to reset the password of your ${PRODUCT} account.`,
      "The link works for 1 hour. If it was not you, ignore this email: your password stays the same.",
    ],
    action: { label: "Reset your password", url: input.url },
  });
}
