// Local stand-ins for outside services, served by the app itself outside production.
import type { FastifyPluginAsync } from "fastify";
import { FAKE_CHAT_WIDGET_SCRIPT } from "./chat-widget.ts";
import { googleOidcFake } from "./google-oidc.ts";
import { mql5OAuthFake } from "./mql5-oauth.ts";

export const devFakesRoutes: FastifyPluginAsync = async (app) => {
  app.get("/dev/fakes/chat-widget.js", async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "no-store").send(FAKE_CHAT_WIDGET_SCRIPT),
  );
  await app.register(googleOidcFake, { prefix: "/dev/fakes/google" });
  await app.register(mql5OAuthFake, { prefix: "/dev/fakes/mql5" });
};
