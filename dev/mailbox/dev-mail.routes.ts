// The development mailbox: emails the app would have sent, readable in the browser at /dev/mail
// and as JSON for tests. Registered only outside production.
import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../src/server/db/client.ts";
import { devMail } from "../../src/server/db/schema.ts";

const PAGE_SIZE = 50;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain text with its links made clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

export const devMailRoutes = ({ db }: { db: Db }): FastifyPluginAsyncZod => async (app) => {
  app.get(
    "/dev/mail/messages",
    { schema: { querystring: z.object({ to: z.string().optional() }) } },
    async (request) => {
      const to = request.query.to?.trim().toLowerCase();
      const messages = await db
        .select()
        .from(devMail)
        .where(to ? eq(devMail.to, to) : undefined)
        .orderBy(desc(devMail.id))
        .limit(PAGE_SIZE);
      return { messages };
    },
  );

  app.get("/dev/mail", async (_request, reply) => {
    const messages = await db.select().from(devMail).orderBy(desc(devMail.id)).limit(PAGE_SIZE);
    const items = messages
      .map(
        (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To ${escapeHtml(m.to)} · ${m.createdAt.toISOString()}</p>
<pre>${linkify(m.text)}</pre></article>`,
      )
      .join("");
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development mailbox · Trading Academy</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#172033}
article{border:1px solid #d9dee7;border-radius:10px;padding:1rem;margin:1rem 0}h2{font-size:1.1rem;margin:0}
.meta{color:#4b5565;margin:.25rem 0 .75rem}pre{white-space:pre-wrap;font:inherit}</style></head>
<body><h1>Development mailbox</h1>
<p>Emails the app sent while no SMTP server is configured (newest first, ${PAGE_SIZE} at most).</p>
${items || "<p>No messages yet.</p>"}</body></html>`);
  });
};
