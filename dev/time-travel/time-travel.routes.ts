// Development only: moves a learner's recorded times back, as if that much time had passed, so a
// browser test sees a wait end (the quiz's minute before a new attempt) without waiting for it.
// The server's rules read the moved times as they read any others; the browser's own clock is
// moved by the test (Playwright's clock). Registered by dev/development.ts, never in production.
import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../src/server/db/client.ts";
import { quizSittings, users } from "../../src/server/db/schema.ts";

export const devTimeTravelRoutes = ({ db }: { db: Db }): FastifyPluginAsyncZod => async (app) => {
  app.post(
    "/dev/time-travel/quiz-sittings",
    { schema: { body: z.object({ email: z.string().email(), minutes: z.number().int().min(1).max(60 * 24 * 30) }) } },
    async (request, reply) => {
      const { email, minutes } = request.body;
      const [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
      if (!user) return reply.code(404).send({ error: { code: "NOT_FOUND", message: `No account for ${email}.` } });
      const back = sql`make_interval(mins => ${minutes})`;
      const moved = await db
        .update(quizSittings)
        .set({ startedAt: sql`${quizSittings.startedAt} - ${back}`, answeredAt: sql`${quizSittings.answeredAt} - ${back}` })
        .where(eq(quizSittings.userId, user.id))
        .returning({ number: quizSittings.number });
      return { moved: moved.length };
    },
  );
};
