import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { forgotPasswordFormSchema } from "../../../shared/contracts/accounts.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextField } from "../../ui/text-field.tsx";
import { useRequestPasswordReset } from "./accounts-api.ts";
import { withRedirect } from "../../session/redirects.ts";

export function ForgotPasswordPage() {
  const [searchParams] = useSearchParams();
  const requestReset = useRequestPasswordReset();
  const form = useForm<{ email: string }>({ defaultValues: { email: "" } });

  const onSubmit = form.handleSubmit(async (values) => {
    requestReset.reset();
    const parsed = forgotPasswordFormSchema.safeParse(values);
    if (!parsed.success) {
      form.setError("root", { message: parsed.error.issues[0]?.message });
      return;
    }
    await requestReset.mutateAsync(parsed.data.email).catch(() => undefined);
  });

  const errorMessage = form.formState.errors.root?.message ?? requestReset.error?.message;
  const submitting = form.formState.isSubmitting;

  return (
    <section className="container section narrow auth-page">
      <h1>Forgot your password?</h1>
      <p className="section-lead">Enter your email and we will send you a link to choose a new password.</p>
      <div className="card stack">
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <TextField label="Email" type="email" autoComplete="email" {...form.register("email")} />
          <FormMessages error={errorMessage} success={requestReset.data?.message} />
          <button type="submit" className="button" disabled={submitting}>
            {submitting ? "Sending..." : "Send Reset Link"}
          </button>
        </form>
        <p className="auth-links">
          <Link to={withRedirect("/login", searchParams.get("redirect"))}>Back to Login</Link>
        </p>
      </div>
    </section>
  );
}
