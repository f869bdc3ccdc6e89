import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { AUTH_MESSAGES, resetPasswordFormSchema } from "../../../shared/contracts/accounts.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { errorCode, useResetPassword } from "./accounts-api.ts";
import { useGoToLogin } from "./sign-in-flow.ts";

type ResetForm = { newPassword: string; confirmPassword: string };

export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  // The mailed link reaches us with ?token=, or with ?error= once the server has refused it.
  if (!token || searchParams.has("error")) {
    return (
      <section className="container section narrow auth-page">
        <h1>Reset Password</h1>
        <div className="card stack">
          <p role="alert" className="form-error">
            {AUTH_MESSAGES.resetLinkInvalid}
          </p>
          <p>
            <Link to="/forgot-password">Request a new reset link</Link>
          </p>
        </div>
      </section>
    );
  }
  return <ResetPasswordForm token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const goToLogin = useGoToLogin();
  const resetPassword = useResetPassword();
  const form = useForm<ResetForm>({ defaultValues: { newPassword: "", confirmPassword: "" } });

  const onSubmit = form.handleSubmit(async (values) => {
    const parsed = resetPasswordFormSchema.safeParse(values);
    if (!parsed.success) {
      form.setError("root", { message: parsed.error.issues[0]?.message });
      return;
    }
    const done = await resetPassword.mutateAsync({ newPassword: parsed.data.newPassword, token }).then(
      () => true,
      () => false,
    );
    if (!done) return;
    // The login page says it, so no toast says it again.
    await goToLogin({ tone: "success", message: AUTH_MESSAGES.passwordResetDone }, { replace: true });
  });

  const errorMessage = form.formState.errors.root?.message ?? resetPassword.error?.message;
  const linkRefused = errorCode(resetPassword.error) === "INVALID_TOKEN";
  const submitting = form.formState.isSubmitting;

  return (
    <section className="container section narrow auth-page">
      <h1>Reset Password</h1>
      <p className="section-lead">Choose a new password for your account.</p>
      <div className="card stack">
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <PasswordField
            label="New Password"
            hint="At least 8 characters."
            autoComplete="new-password"
            {...form.register("newPassword")}
          />
          <PasswordField
            label="Confirm New Password"
            autoComplete="new-password"
            {...form.register("confirmPassword")}
          />
          <FormMessages error={errorMessage} />
          {linkRefused && (
            <p>
              <Link to="/forgot-password">Request a new reset link</Link>
            </p>
          )}
          <button type="submit" className="button" disabled={submitting}>
            {submitting ? "Resetting..." : "Reset Password"}
          </button>
        </form>
        <p className="auth-links">
          <Link to="/login">Back to Login</Link>
        </p>
      </div>
    </section>
  );
}
