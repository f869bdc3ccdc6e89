// The texts of the SMS (docs/product.md, "SMS"): each one message, at most 160 characters of the
// GSM 03.38 basic set, with a short link to the page it is about.

/** GSM 03.38's basic character set (one septet each); its extension table (`{}[]~|^€\`) costs two. */
const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXTENDED = "^{}\\[~]|€\f";

/** How many septets a text takes in GSM-7, or null when a character is outside it (UCS-2 then: 70 a message). */
export function gsm7Length(text: string): number | null {
  let length = 0;
  for (const character of text) {
    if (GSM7_BASIC.includes(character)) length += 1;
    else if (GSM7_EXTENDED.includes(character)) length += 2;
    else return null;
  }
  return length;
}

export const SMS_MAX_LENGTH = 160;

/** Whether a text goes as one SMS: GSM-7 only and at most 160 septets. */
export function fitsOneSms(text: string): boolean {
  const length = gsm7Length(text);
  return length !== null && length <= SMS_MAX_LENGTH;
}

/** A link as short as the site allows: the address without its scheme. */
function shortLink(appUrl: string, path: string): string {
  return `${appUrl.replace(/^https?:\/\//, "").replace(/\/$/, "")}${path}`;
}

/** Cuts a free text (a cohort's name) so the whole SMS stays within one message. */
function clip(text: string, max: number): string {
  const plain = text.replace(/[^\x20-\x7e]/g, "").replace(/[\^{}\\[\]~|]/g, "").trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}.` : plain;
}

/** The first wording that fits one SMS; the last (the shortest) when none does. */
function firstThatFits(...texts: string[]): string {
  return texts.find(fitsOneSms) ?? texts.at(-1) ?? "";
}

function dayOf(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

export const SMS_TEXTS = {
  code: (code: string) => `Your Trading Academy code is ${code}. It expires in 10 minutes. Never share it.`,
  /** Instead of a code, to a number confirmed on another account: its owner is told, the asker is not. */
  numberInUse: (appUrl: string) =>
    `Trading Academy: someone asked to add this number to another account. No code was sent and your account is unchanged: ${shortLink(appUrl, "/account")}`,
  endingSoon: (appUrl: string, plan: string, end: Date) =>
    `Trading Academy: your ${plan} plan ends on ${dayOf(end)}. Renew to keep your access: ${shortLink(appUrl, "/subscription")}`,
  expired: (appUrl: string, plan: string) =>
    `Trading Academy: your ${plan} plan has ended; you are back on the free Beginner program. Renew: ${shortLink(appUrl, "/subscription")}`,
  receipt: (appUrl: string, amount: string, receiptPath: string) =>
    firstThatFits(
      `Trading Academy: payment of ${amount} received. Thank you! Your receipt: ${shortLink(appUrl, receiptPath)}`,
      `Trading Academy: ${amount} received, thank you. Receipt: ${shortLink(appUrl, receiptPath)}`,
    ),
  cohort: (appUrl: string, cohort: string, track: string, start: string, trackPath: string) =>
    firstThatFits(
      `Trading Academy: you are admitted to the ${track} track of the ${clip(cohort, 20)} cohort, starting ${start}. ${shortLink(appUrl, trackPath)}`,
      `Trading Academy: welcome to the ${clip(cohort, 20)} cohort (${track}), starting ${start}. ${shortLink(appUrl, trackPath)}`,
      `Trading Academy: welcome to the ${clip(cohort, 20)} cohort (${track})! ${shortLink(appUrl, trackPath)}`,
    ),
  mentorship: (appUrl: string, when: string) =>
    `Trading Academy: your mentorship session is booked for ${when}. Details: ${shortLink(appUrl, "/mentorship")}`,
  journalComment: (appUrl: string, instrument: string) =>
    `Trading Academy: your mentor commented on your ${clip(instrument, 12)} trade. Read it in your journal: ${shortLink(appUrl, "/journal")}`,
} as const;
