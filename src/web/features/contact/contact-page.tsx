import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  contactRequestSchema,
  type ContactRequest,
} from "../../../shared/contracts/contact.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextAreaField, TextField } from "../../ui/text-field.tsx";
import { useSendContactMessage } from "./contact-api.ts";

export const CONTACT_SUCCESS_VISIBLE_MS = 4_000;

export function ContactPage() {
  const sendMessage = useSendContactMessage();
  const [sent, setSent] = useState(false);
  const form = useForm<ContactRequest>({
    resolver: zodResolver(contactRequestSchema),
    defaultValues: { name: "", email: "", message: "" },
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => setSent(false), CONTACT_SUCCESS_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  const onSubmit = form.handleSubmit((values) =>
    sendMessage.mutateAsync(values).then(
      () => {
        form.reset();
        setSent(true);
      },
      () => setSent(false),
    ),
  );

  // The spec has one message for the whole form: show the first problem found.
  const validationMessage = errors.name?.message ?? errors.email?.message ?? errors.message?.message;
  const serverMessage =
    sendMessage.error instanceof ApiRequestError && sendMessage.error.status === 400
      ? sendMessage.error.message
      : CONTACT_MESSAGES.failed;
  const errorMessage = validationMessage ?? (sendMessage.isError ? serverMessage : undefined);
  const sending = form.formState.isSubmitting;

  return (
    <section className="container section narrow">
      <h1>Contact us</h1>
      <p className="section-lead">
        Questions about a program, a payment or your account? Send us a message and we will reply by
        email.
      </p>
      <form className="card form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          label="Name"
          autoComplete="name"
          maxLength={CONTACT_LIMITS.name}
          aria-invalid={errors.name ? true : undefined}
          {...form.register("name")}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          maxLength={CONTACT_LIMITS.email}
          aria-invalid={errors.email ? true : undefined}
          {...form.register("email")}
        />
        <TextAreaField
          label="Message"
          rows={6}
          maxLength={CONTACT_LIMITS.message}
          aria-invalid={errors.message ? true : undefined}
          {...form.register("message")}
        />
        <FormMessages error={errorMessage}>
          {sent && <p className="form-success">{CONTACT_MESSAGES.sent}</p>}
        </FormMessages>
        <button type="submit" className="button" disabled={sending}>
          {sending ? "Sending..." : "Send Message"}
        </button>
      </form>
    </section>
  );
}
