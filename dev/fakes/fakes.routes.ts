// Local stand-ins for outside services, served by the app itself outside production.
import type { FastifyPluginAsync } from "fastify";
import { FAKE_CHAT_WIDGET_SCRIPT } from "./chat-widget.ts";
import { googleOidcFake } from "./google-oidc.ts";
import { mql5OAuthFake } from "./mql5-oauth.ts";
import { paystackSimulator, type PaystackSimulatorOptions } from "./paystack-simulator.ts";
import { FAKE_YOUTUBE_IFRAME_API_SCRIPT, fakeYouTubeThumbnail } from "./youtube-iframe-api.ts";

export type DevFakesOptions = {
  /** The Paystack simulator runs only when the app has its key and webhook URL to give it. */
  paystack?: Omit<PaystackSimulatorOptions, "now">;
};

export const devFakesRoutes: FastifyPluginAsync<DevFakesOptions> = async (app, options) => {
  app.get("/dev/fakes/chat-widget.js", async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "no-store").send(FAKE_CHAT_WIDGET_SCRIPT),
  );
  app.get("/dev/fakes/youtube/iframe_api", async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "no-store").send(FAKE_YOUTUBE_IFRAME_API_SCRIPT),
  );
  // A video's thumbnail, as i.ytimg.com/vi/{videoId}/{size}.jpg answers (an SVG in the stand-in).
  app.get<{ Params: { videoId: string; file: string } }>("/dev/fakes/youtube/vi/:videoId/:file", async (request, reply) => {
    const { videoId, file } = request.params;
    if (!/^[\w-]{11}$/.test(videoId) || !/^(default|mqdefault|hqdefault|sddefault|maxresdefault)\.jpg$/.test(file)) {
      return reply.code(404).send();
    }
    const size = file.slice(0, -".jpg".length);
    return reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(fakeYouTubeThumbnail(videoId, size));
  });
  await app.register(googleOidcFake, { prefix: "/dev/fakes/google" });
  await app.register(mql5OAuthFake, { prefix: "/dev/fakes/mql5" });
  if (options.paystack) await app.register(paystackSimulator, { prefix: "/dev/fakes/paystack", ...options.paystack });
};
