// SMS through Hubtel, or the development mailbox (docs/integrations.md, "Hubtel SMS").
import type { Feature, FeatureDeps } from "../../feature.ts";
import { createSmsSender } from "../../integrations/sms.ts";
import { SMS_JOB } from "./sms-events.ts";
import { smsRoutes } from "./sms.routes.ts";
import { createSmsJobHandler } from "./sms.service.ts";

export function smsFeature(deps: FeatureDeps): Feature {
  const { db, env, log, metrics } = deps;
  return {
    routes: smsRoutes(deps),
    jobs: {
      [SMS_JOB]: createSmsJobHandler({ db, sender: createSmsSender({ env, db, log }), secret: env.authSecret, appUrl: env.appUrl, metrics: () => metrics }),
    },
  };
}
