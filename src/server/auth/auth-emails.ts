// The mails of signing up and signing in: verifying an email (a new one too) and resetting a password.
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

/** The link that confirms a new email address, mailed to that address (docs/accounts.md). */
export function emailChangeEmail(input: { to: string; name: string; url: string }): MailMessage {
  return emailLayout({
    to: input.to,
    name: input.name,
    subject: `Confirm your new email for ${PRODUCT}`,
    heading: "Confirm your new email",
    paragraphs: [
      `Someone asked to use this address for their ${PRODUCT} account. Open the link to confirm it: your account's email changes only then.`,
      "The link works for 24 hours. If it was not you, ignore this email: nothing changes.",
    ],
    action: { label: "Confirm your new email", url: input.url },
  });
}

/** To the address an account had, once its email changed (docs/accounts.md, "Changing your email"). */
export function emailChangedEmail(input: { to: string; name: string; newEmail: string; appUrl: string }): MailMessage {
  return emailLayout({
    to: input.to,
    name: input.name,
    subject: `Your ${PRODUCT} email was changed`,
    heading: "Your email was changed",
    paragraphs: [
      `The email of your ${PRODUCT} account is now ${input.newEmail}. You sign in with it, and our emails go there: this address no longer belongs to the account.`,
      "If you did not change it, contact us at once.",
    ],
    action: { label: "Contact us", url: `${input.appUrl}/contact` },
  });
}
