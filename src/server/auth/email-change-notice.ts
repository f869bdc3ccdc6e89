// Once an account's email has changed, the address it had is told, naming the new one: whoever
// made the change, the owner of the old address learns of it and can ask for help
// (docs/accounts.md, "Changing your email").
import { decodeJwt } from "jose";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { Mailer } from "../emails/outbox.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { emailChangedEmail } from "./auth-emails.ts";

export const EMAIL_CHANGED_JOB = "accounts.email-changed";

const noticeSchema = z.object({ email: z.string(), newEmail: z.string(), name: z.string() });
export type EmailChangeNotice = z.infer<typeof noticeSchema>;

/**
 * The notice owed after the library verified a link, or null: the link's token names the address
 * the account had (`email`) and, for a change, the one to change to (`updateTo`), which the
 * verified user now has. A sign-up's verification names no address to change to.
 */
export function emailChangeNotice(token: string, user: { email: string; name: string }): EmailChangeNotice | null {
  let payload: Record<string, unknown>;
  try {
    payload = decodeJwt(token);
  } catch {
    return null;
  }
  const { email, updateTo } = payload;
  if (typeof email !== "string" || typeof updateTo !== "string") return null;
  if (updateTo.toLowerCase() !== user.email.toLowerCase() || email.toLowerCase() === updateTo.toLowerCase()) return null;
  return { email, newEmail: user.email, name: user.name };
}

/** Called by the library once a link is verified (`afterEmailVerification`): queues the notice of a change. */
export async function queueEmailChangeNotice(db: Db, request: Request | undefined, user: { email: string; name: string }): Promise<void> {
  const token = request ? new URL(request.url).searchParams.get("token") : null;
  const notice = token ? emailChangeNotice(token, user) : null;
  if (notice) await enqueueJob(db, EMAIL_CHANGED_JOB, notice);
}

/** The job that mails the notice. */
export function emailChangedJobHandler(deps: { mailer: Mailer; appUrl: string }) {
  return async (payload: unknown) => {
    const { email, newEmail, name } = noticeSchema.parse(payload);
    await deps.mailer.send(emailChangedEmail({ to: email, name, newEmail, appUrl: deps.appUrl }));
  };
}
