// Accounts made the way a person makes one: registered through the API, verified by the link
// mailed to the development mailbox, signed in with the email and password. Each simulated
// learner has a loopback address of its own (127.x.y.z), used for everything it does, because
// the app limits registration and sign-in per address.
import type { Client } from "./http-client.ts";
import { sleep } from "./stats.ts";

export const PASSWORD = "Load-Fault-Password-2025";

/** The i-th address of a run: 127.<net>.<i / 250>.<i % 250 + 1>. `net` keeps runs apart. */
export function learnerAddress(net: number, index: number): string {
  return `127.${net}.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

export type Learner = { index: number; email: string; client: Client };

export class SetupError extends Error {}

function describe(answer: { status: number; networkError: string | null; text: string }): string {
  return answer.status === 0 ? `network error ${answer.networkError ?? ""}` : `${answer.status} ${answer.text.slice(0, 300)}`;
}

type MailMessage = { subject: string; text: string; html: string };

function field(value: object, key: string): string {
  const found: unknown = Reflect.get(value, key);
  return typeof found === "string" ? found : "";
}

function mailMessages(json: unknown): MailMessage[] {
  if (typeof json !== "object" || json === null || !("messages" in json) || !Array.isArray(json.messages)) return [];
  return json.messages.flatMap((message: unknown) =>
    typeof message === "object" && message !== null
      ? [{ subject: field(message, "subject"), text: field(message, "text"), html: field(message, "html") }]
      : [],
  );
}

/** The messages the development mailbox holds for `email`, newest first. */
export async function mailbox(client: Client, email: string): Promise<MailMessage[]> {
  const answer = await client.get(`/dev/mail/messages?${new URLSearchParams({ to: email })}`);
  if (answer.status !== 200) throw new SetupError(`GET /dev/mail/messages: ${describe(answer)}`);
  return mailMessages(answer.json);
}

/** The token of the newest /verify-email link mailed to `email`, waiting for the mail. */
async function verificationToken(client: Client, email: string, timeoutMs = 15_000): Promise<string> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const answer = await client.get(`/dev/mail/messages?${new URLSearchParams({ to: email })}`);
    if (answer.status === 200) {
      for (const message of mailMessages(answer.json)) {
        for (const href of `${message.text}\n${message.html}`.match(/https?:\/\/[^\s"'<>]+/g) ?? []) {
          if (!URL.canParse(href)) continue;
          const url = new URL(href.replace(/&amp;/g, "&"));
          const token = url.searchParams.get("oobCode");
          if (url.pathname.startsWith("/verify-email") && token) return token;
        }
      }
    }
    await sleep(200);
  }
  throw new SetupError(`no verification link mailed to ${email} within ${timeoutMs} ms`);
}

/** POST /api/accounts/register from the learner's address; the answer is returned as is. */
export function register(client: Client, email: string, name = "Load Learner") {
  return client.post("/api/accounts/register", { fullName: name, email, password: PASSWORD, confirmPassword: PASSWORD });
}

/** Registers and verifies an account from the learner's own address (not signed in yet). */
export async function prepareAccount(client: Client, email: string): Promise<void> {
  const registered = await register(client, email);
  if (registered.status !== 201) throw new SetupError(`registering ${email}: ${describe(registered)}`);
  const token = await verificationToken(client, email);
  const verified = await client.get(`/api/auth/verify-email?${new URLSearchParams({ token })}`);
  if (verified.status !== 200) throw new SetupError(`verifying ${email}: ${describe(verified)}`);
}

/** POST /api/auth/sign-in/email; the session cookie lands in the client's jar. */
export function signIn(client: Client, email: string) {
  return client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
}

export async function signInOrThrow(client: Client, email: string): Promise<void> {
  const answer = await signIn(client, email);
  if (answer.status !== 200 || !client.cookies.has("ta.session_token")) {
    throw new SetupError(`signing in ${email}: ${describe(answer)}`);
  }
}

/** A unique email for this run. */
export function learnerEmail(run: string, scenario: string, index: number): string {
  return `${scenario}-${index}-${run}@load.example`;
}
