import * as z from "zod/mini";

/** What the browser needs to know of the server's configuration: public values only. */
export const siteConfigSchema = z.object({
  chatWidgetUrl: z.nullable(z.string()),
  supportEmail: z.string(),
  supportPhone: z.string(),
  socialLinks: z.array(z.object({ label: z.string(), href: z.string() })),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
