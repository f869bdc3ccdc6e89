// SMS's seam: receipts and reminders (billing), admissions (cohorts) and mentorship confirmations
// (support) also go by SMS, each queued once, to a confirmed number, when the learner chose it
// (docs/product.md, "SMS").
export { queueEventSms, SMS_TEXTS } from "./sms-events.ts";
