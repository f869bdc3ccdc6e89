import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siteConfigSchema } from "../../../shared/contracts/site.ts";

/** The public part of the configuration, for the browser. */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/api/site", { schema: { response: { 200: siteConfigSchema } } }, async () => ({
    chatWidgetUrl: app.env.chatWidgetUrl,
    youtubeIframeApiUrl: app.env.youtubeIframeApiUrl,
    youtubeThumbnailUrl: app.env.youtubeThumbnailUrl,
    supportEmail: app.env.supportEmail,
    supportPhone: app.env.supportPhone,
    socialLinks: app.env.socialLinks,
    auth: { google: app.env.google !== null, mql5: app.env.mql5 !== null },
  }));
};
