import { describe, expect, it } from "vitest";
import { smsSettingsResponseSchema } from "./sms.ts";

// docs/product.md, "SMS": the card reads the settings kept offline by the service worker, which
// may be an answer from the release before another number could wait for its code.
describe("the SMS settings' answer", () => {
  const confirmed = { phone: "+233245550101", confirmed: true, codeStatus: null, preferences: { reminders: true, receipts: true, cohorts: true, mentorship: true } };

  it("reads an answer without pendingPhone as a confirmed number with none waiting", () => {
    const read = smsSettingsResponseSchema.safeParse({ settings: confirmed });
    expect(read.success).toBe(true);
    expect(read.data?.settings).toMatchObject({ phone: "+233245550101", confirmed: true, pendingPhone: null });
  });

  it("reads the number waiting for its code", () => {
    const read = smsSettingsResponseSchema.safeParse({ settings: { ...confirmed, pendingPhone: "+233555550111", codeStatus: "sent" } });
    expect(read.data?.settings.pendingPhone).toBe("+233555550111");
  });
});
