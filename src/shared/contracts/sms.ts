// SMS on /account: a Ghanaian mobile number confirmed by a code, and what comes by SMS
// (docs/product.md, "SMS"). Its texts sit here so that the browser shows exactly what the server says.
import * as z from "zod/mini";
import { waitText } from "./accounts.ts";
import { endpoint } from "./endpoint.ts";

/** What a learner may choose to receive by SMS, besides the email that always goes. */
export const SMS_PREFERENCES = ["reminders", "receipts", "cohorts", "mentorship"] as const;
export type SmsPreference = (typeof SMS_PREFERENCES)[number];

export const SMS_PREFERENCE_LABELS: Record<SmsPreference, string> = {
  reminders: "Renewal reminders (3 days before and on the day your plan ends)",
  receipts: "A short receipt after each payment",
  cohorts: "Cohort admission",
  mentorship: "Mentorship session confirmations",
};

export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_MINUTES = 10;
export const SMS_CODE_TRIES = 5;

export const SMS_MESSAGES = {
  notGhanaMobile:
    "Please enter a Ghanaian mobile number: 10 digits starting with 02 or 05, such as 024 123 4567, or +233 followed by 9 digits.",
  numberTaken: "This number is already confirmed on another account. Please use another number.",
  codeSent: (phone: string) => `We are sending a ${SMS_CODE_LENGTH}-digit code to ${phone}. It is valid for ${SMS_CODE_MINUTES} minutes.`,
  codeFormat: `Please enter the ${SMS_CODE_LENGTH}-digit code from the SMS.`,
  codeWrong: (triesLeft: number) =>
    triesLeft > 0
      ? `That code is not right. You have ${triesLeft} ${triesLeft === 1 ? "try" : "tries"} left.`
      : "That code is not right, and no tries are left. Please ask for a new code.",
  codeExpired: "That code has expired. Please ask for a new code.",
  noCode: "There is no code waiting for this number. Please ask for a new code.",
  confirmed: "Your number is confirmed. SMS will come to it as you chose below.",
  numberKept: (phone: string) => `SMS stay with ${phone}, your confirmed number.`,
  noNumber: "Please add and confirm a mobile number first.",
  preferencesSaved: "Your SMS choices have been saved.",
  removed: "Your number has been removed. No more SMS will be sent to you.",
  tooManyForNumber: (ms: number) => `Too many codes for this number. Please try again in ${waitText(ms)}.`,
  tooManyForAccount: (ms: number) => `Too many codes for this account. Please try again in ${waitText(ms)}.`,
  tooManyFromNetwork: (ms: number) => `Too many codes from your network. Please try again in ${waitText(ms)}.`,
} as const;

/** The limits on confirmation codes, each in an hour (docs/product.md, "SMS"). */
export const SMS_CODE_LIMITS = { perNumber: 3, perAccount: 5, perAddress: 20, windowMs: 60 * 60_000 } as const;

export const smsPhoneRequestSchema = z.object({ phone: z.string().check(z.maxLength(40)) });
export const smsConfirmRequestSchema = z.object({ code: z.string().check(z.maxLength(20)) });
export const smsPreferencesSchema = z.object({
  reminders: z.boolean(),
  receipts: z.boolean(),
  cohorts: z.boolean(),
  mentorship: z.boolean(),
});
export type SmsPreferences = z.infer<typeof smsPreferencesSchema>;

/**
 * The learner's SMS settings: no number, a number waiting for its code, or a confirmed one (and
 * perhaps another number waiting for its code, which replaces it once the code is given).
 */
export const smsSettingsSchema = z.object({
  phone: z.nullable(z.string()),
  confirmed: z.boolean(),
  /**
   * Another number asked for while `phone` is confirmed; `phone` keeps the SMS until its code is
   * given. Absent from the answers of the release before it (kept offline by the service worker,
   * or from an instance not yet updated): none waiting.
   */
  pendingPhone: z._default(z.nullable(z.string()), null),
  /** The latest code's SMS: on its way, accepted by Hubtel, or failing (retried). */
  codeStatus: z.nullable(z.enum(["sending", "sent", "failing"])),
  preferences: smsPreferencesSchema,
});
export type SmsSettings = z.infer<typeof smsSettingsSchema>;
export const smsSettingsResponseSchema = z.object({ settings: smsSettingsSchema, message: z.optional(z.string()) });

/** The SMS that have not gone through (yet), for the admin console: Hubtel refused them or did not answer. */
export const failingSmsSchema = z.object({
  total: z.number(),
  messages: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      to: z.string(),
      attempts: z.number(),
      lastError: z.nullable(z.string()),
      createdAt: z.string(),
    }),
  ),
});

/**
 * The learner's SMS settings on /account, each change answered with the settings as they now are,
 * and the console's list of the SMS that have not gone through (docs/product.md, "SMS").
 */
export const SMS_ENDPOINTS = {
  settings: endpoint({ method: "GET", path: "/api/accounts/sms", response: smsSettingsResponseSchema }),
  sendCode: endpoint({ method: "POST", path: "/api/accounts/sms/number", body: smsPhoneRequestSchema, response: smsSettingsResponseSchema }),
  confirm: endpoint({ method: "POST", path: "/api/accounts/sms/confirm", body: smsConfirmRequestSchema, response: smsSettingsResponseSchema }),
  savePreferences: endpoint({ method: "PUT", path: "/api/accounts/sms/preferences", body: smsPreferencesSchema, response: smsSettingsResponseSchema }),
  removeNumber: endpoint({ method: "DELETE", path: "/api/accounts/sms/number", response: smsSettingsResponseSchema }),
  failing: endpoint({ method: "GET", path: "/api/admin/sms/failing", response: failingSmsSchema }),
};

/** A phone number as Ghanaians write it: 024 123 4567. */
export function formatGhanaPhone(e164: string): string {
  const national = e164.startsWith("+233") ? `0${e164.slice(4)}` : e164;
  return national.length === 10 ? `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}` : national;
}
