// An SMTP server on a free local port that keeps the raw messages it accepts: what a mail server
// would receive from the app over SMTP_URL.
import { SMTPServer } from "smtp-server";

export type SmtpSink = { url: string; messages: { to: string[]; raw: string }[]; close(): Promise<void> };

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  if (typeof address !== "object" || address === null) throw new Error("the SMTP sink is not listening");
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
