// The contact form, kept and forwarded to the academy's webhook when one is configured
// (docs/integrations.md, "Contact forwarding").
import type { Feature, FeatureDeps } from "../../feature.ts";
import { forwardContactMessage, type ContactMessage } from "../../integrations/contact-webhook.ts";
import { contactRoutes } from "./contact.routes.ts";
import { CONTACT_FORWARD_JOB } from "./contact.service.ts";

export function contactFeature(deps: FeatureDeps): Feature {
  const { env } = deps;
  return {
    routes: contactRoutes(deps),
    jobs: {
      [CONTACT_FORWARD_JOB]: async (payload) => {
        if (!env.contactWebhookUrl) return;
        await forwardContactMessage(env.contactWebhookUrl, payload as ContactMessage);
      },
    },
  };
}
