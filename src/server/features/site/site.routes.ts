import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { SITE_ENDPOINTS } from "../../../shared/contracts/site.ts";
import type { FeatureDeps } from "../../feature.ts";
import { route } from "../../plugins/endpoints.ts";

/** The public part of the configuration, for the browser. */
export const siteRoutes = ({ env }: Pick<FeatureDeps, "env">): FastifyPluginAsyncZod => async (app) => {
  route(app, SITE_ENDPOINTS.site, {}, async () => ({
    chatWidgetUrl: env.chatWidgetUrl,
    youtubeIframeApiUrl: env.youtubeIframeApiUrl,
    youtubeThumbnailUrl: env.youtubeThumbnailUrl,
    supportEmail: env.supportEmail,
    supportPhone: env.supportPhone,
    socialLinks: env.socialLinks,
    auth: { google: env.google !== null, mql5: env.mql5 !== null },
  }));
};
