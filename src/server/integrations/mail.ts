// Delivers email: over SMTP when SMTP_URL is set, otherwise into the development mailbox (a table
// read at /dev/mail). Production without SMTP_URL refuses to deliver rather than pretend. Only
// the mail outbox's job (emails/outbox.ts) and the announcement sender deliver directly; everything
// else queues its email through the outbox (docs/decisions/023-mail-outbox.md).
import nodemailer from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.ts";
import { devMail } from "../db/schema.ts";
import type { Env } from "../env.ts";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header lines, e.g. List-Unsubscribe on announcements; the development mailbox keeps none. */
  headers?: Record<string, string>;
};

export type MailTransport = {
  /** Hands the message to the mail server (or the development mailbox); throws when it is not taken. */
  deliver(message: MailMessage): Promise<void>;
  close(): void;
};

export class MailNotConfiguredError extends Error {}

export function createMailTransport(options: { env: Env; db: Db; log: FastifyBaseLogger }): MailTransport {
  const { env, db, log } = options;
  if (env.mail.smtpUrl) {
    // A pooled transport keeps the SMTP connection open between messages.
    const transport = nodemailer.createTransport({ url: env.mail.smtpUrl, pool: true });
    return {
      async deliver(message) {
        await transport.sendMail({ from: env.mail.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  if (env.isProduction) {
    return {
      async deliver() {
        throw new MailNotConfiguredError("SMTP_URL is not set: email cannot be sent.");
      },
      close() {},
    };
  }
  return {
    async deliver({ headers: _headers, ...message }) {
      await db.insert(devMail).values(message);
      // The links (each with its token) are printed for the developer to click, in development
      // only: the tests' logs hold no token (docs/operations.md, "Logs").
      const links = env.nodeEnv === "development" ? (message.text.match(/https?:\/\/\S+/g) ?? []) : undefined;
      log.info({ to: message.to, subject: message.subject, links }, "development mailbox: message stored");
    },
    close() {},
  };
}
