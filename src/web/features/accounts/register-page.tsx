import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { registerRequestSchema, type RegisterRequest } from "../../../shared/contracts/accounts.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { TextField } from "../../ui/text-field.tsx";
import { useRegister } from "./accounts-api.ts";
import { rememberPendingRedirect, withRedirect } from "../../session/redirects.ts";
import { useGoToLogin } from "./sign-in-flow.ts";
import { SignedOutOnly } from "./signed-out-only.tsx";

export function RegisterPage() {
  return (
    <SignedOutOnly>
      <RegisterForm />
    </SignedOutOnly>
  );
}

function RegisterForm() {
  const goToLogin = useGoToLogin();
  const [searchParams] = useSearchParams();
  const registration = useRegister();
  const [resentMessage, setResentMessage] = useState<string>();
  const form = useForm<RegisterRequest>({
    defaultValues: { fullName: "", email: "", password: "", confirmPassword: "" },
  });
  const loginPath = withRedirect("/login", searchParams.get("redirect"));

  const onSubmit = form.handleSubmit(async (values) => {
    setResentMessage(undefined);
    const parsed = registerRequestSchema.safeParse(values);
    if (!parsed.success) {
      form.setError("root", { message: parsed.error.issues[0]?.message });
      return;
    }
    const response = await registration.mutateAsync(parsed.data).catch(() => null);
    if (!response) return;
    // Verifying happens through a mailed link: keep where the visitor was going for their login.
    rememberPendingRedirect(searchParams.get("redirect"));
    switch (response.status) {
      // The login page says it, so no toast says it again.
      case "created":
        await goToLogin({ tone: "success", message: response.message });
        return;
      case "created-mail-failed":
        await goToLogin({ tone: "error", message: response.message });
        return;
      case "verification-resent":
        setResentMessage(response.message);
        return;
    }
  });

  const errorMessage = form.formState.errors.root?.message ?? registration.error?.message;
  const submitting = form.formState.isSubmitting;

  return (
    <section className="container section narrow auth-page">
      <h1>Create your account</h1>
      <p className="section-lead">Start with the free Beginner program. Upgrade whenever you are ready.</p>
      <div className="card stack">
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <TextField label="Full Name" autoComplete="name" {...form.register("fullName")} />
          <TextField label="Email" type="email" autoComplete="email" {...form.register("email")} />
          <PasswordField
            label="Password"
            hint="At least 8 characters."
            autoComplete="new-password"
            {...form.register("password")}
          />
          <PasswordField
            label="Confirm Password"
            autoComplete="new-password"
            {...form.register("confirmPassword")}
          />
          <FormMessages error={errorMessage} info={resentMessage} />
          <button type="submit" className="button" disabled={submitting}>
            {submitting ? "Signing up..." : "Sign Up"}
          </button>
        </form>
        <p className="auth-links">
          <span>
            Already have an account? <Link to={loginPath}>Log in</Link>
          </span>
        </p>
      </div>
    </section>
  );
}
