import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";

/** Which sign-in providers this installation has configured. */
export const authProvidersSchema = z.object({ google: z.boolean(), mql5: z.boolean() });

/** What the browser needs to know of the server's configuration: public values only. */
export const siteConfigSchema = z.object({
  chatWidgetUrl: z.nullable(z.string()),
  /** The YouTube IFrame Player API's script, loaded by the lesson page only. */
  youtubeIframeApiUrl: z.string(),
  /** Where a video's thumbnails are: `{youtubeThumbnailUrl}{videoId}/{size}.jpg`. */
  youtubeThumbnailUrl: z.string(),
  supportEmail: z.string(),
  supportPhone: z.string(),
  socialLinks: z.array(z.object({ label: z.string(), href: z.string() })),
  auth: authProvidersSchema,
});

export const SITE_ENDPOINTS = {
  /** The public part of the server's configuration. */
  site: endpoint({ method: "GET", path: "/api/site", response: siteConfigSchema }),
};
