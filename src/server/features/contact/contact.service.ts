import type { Db } from "../../db/client.ts";
import { contacts } from "../../db/schema.ts";
import type { ContactMessage } from "../../integrations/contact-webhook.ts";
import { enqueueJob } from "../../jobs/queue.ts";

export const CONTACT_FORWARD_JOB = "contact.forward";

/** Stores the message and, when a webhook is configured, queues its forwarding in the same transaction. */
export async function submitContactMessage(
  db: Db,
  message: ContactMessage,
  options: { forward: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(contacts).values(message);
    if (options.forward) await enqueueJob(tx, CONTACT_FORWARD_JOB, message);
  });
}
