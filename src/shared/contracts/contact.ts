import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export const CONTACT_MESSAGES = {
  required: "All fields are required.",
  invalidEmail: "Please enter a valid email address.",
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters.`,
  sent: "Message sent! We'll get back to you soon.",
  failed: "Failed to send. Please try again later.",
} as const;

const requiredText = (field: string, max: number) =>
  z.string({ error: CONTACT_MESSAGES.required }).check(
    z.trim(),
    z.minLength(1, CONTACT_MESSAGES.required),
    z.maxLength(max, CONTACT_MESSAGES.tooLong(field, max)),
  );

/** One schema for the contact form and for POST /api/contact. */
export const contactRequestSchema = z.object({
  name: requiredText("Name", CONTACT_LIMITS.name),
  email: z.pipe(
    requiredText("Email", CONTACT_LIMITS.email),
    z.email({ error: CONTACT_MESSAGES.invalidEmail }),
  ),
  message: requiredText("Message", CONTACT_LIMITS.message),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
});

export const CONTACT_ENDPOINTS = {
  /** A contact form's message, kept and forwarded (docs/integrations.md, "Contact forwarding"). */
  send: endpoint({ method: "POST", path: "/api/contact", body: contactRequestSchema, response: contactResponseSchema, status: 201 }),
};
