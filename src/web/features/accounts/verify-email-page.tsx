import { useEffect, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { AUTH_MESSAGES, loginFormSchema, type Credentials } from "../../../shared/contracts/accounts.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { TextField } from "../../ui/text-field.tsx";
import {
  useResendVerificationBySignIn,
  useSendVerificationEmail,
  useVerifyEmail,
  type VerificationOutcome,
} from "./accounts-api.ts";
import { useMe, useSignedInUser } from "../../session/session.ts";
import { useFinishSignIn, useGoToLogin, type LoginNotice } from "./sign-in-flow.ts";

export const VERIFIED_REDIRECT_MS = 3_000;

const VERIFIED_NOTICE: LoginNotice = { tone: "success", message: AUTH_MESSAGES.emailVerified };

export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("oobCode");
  return token ? <VerifyToken token={token} /> : <VerificationPrompt />;
}

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="container section narrow auth-page">
      <h1>{title}</h1>
      <div className="card stack">{children}</div>
    </section>
  );
}

function BackToLogin() {
  return (
    <p className="auth-links">
      <Link to="/login">Back to Login</Link>
    </p>
  );
}

function VerifyToken({ token }: { token: string }) {
  const verification = useVerifyEmail(token);
  const goToLogin = useGoToLogin();
  // Only a first verification moves on to the login page by itself.
  const verified = verification.data?.kind === "verified";

  useEffect(() => {
    if (!verified) return;
    const timer = setTimeout(() => void goToLogin(VERIFIED_NOTICE, { replace: true }), VERIFIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verified, goToLogin]);

  if (verification.isPending) {
    return (
      <Page title="Email Verification">
        <p role="status">Verifying your email...</p>
      </Page>
    );
  }
  if (verification.isError) {
    return (
      <Page title="Email Verification">
        <p role="alert" className="form-error">
          {verification.error.message}
        </p>
        <p>Enter your email and password and we will send you a new verification link.</p>
        <ResendWithCredentials />
        <BackToLogin />
      </Page>
    );
  }
  if (verification.data.kind !== "verified") return <VerifiedBefore outcome={verification.data} />;
  return (
    <Page title="Email Verification">
      <p role="status" className="form-success">
        {AUTH_MESSAGES.emailVerified}
      </p>
      <p>Taking you to the login page in 3 seconds.</p>
      <p>
        <Link to="/login" replace state={{ notice: VERIFIED_NOTICE }} className="button">
          Go to Login now
        </Link>
      </p>
    </Page>
  );
}

/**
 * A link that changed the account's email, or one whose email was verified before: the page says
 * which, and leads on from where the visitor is, signed in or not (docs/accounts.md).
 */
function VerifiedBefore({ outcome }: { outcome: Exclude<VerificationOutcome, { kind: "verified" }> }) {
  const { user, isPending } = useSignedInUser();
  const changed = outcome.kind === "email-changed";
  let message: string = changed ? AUTH_MESSAGES.emailChanged(outcome.email) : AUTH_MESSAGES.emailAlreadyVerified;
  if (!changed && !isPending && !user) message = AUTH_MESSAGES.alreadyVerified;
  return (
    <Page title={changed ? "Email Changed" : "Email Verification"}>
      <p role="status" className="form-success break-anywhere">
        {message}
      </p>
      {!isPending && (
        <p>
          {user ? (
            <Link to={changed ? "/account" : "/program"} className="button">
              {changed ? "Back to Your Account" : "Go to My Programs"}
            </Link>
          ) : (
            <Link to="/login" className="button">
              Go to Login
            </Link>
          )}
        </p>
      )}
    </Page>
  );
}

/** After a failed link: the server mails a fresh one when an unverified email signs in. */
function ResendWithCredentials() {
  const resend = useResendVerificationBySignIn();
  const finishSignIn = useFinishSignIn();
  const form = useForm<Credentials>({ defaultValues: { email: "", password: "" } });

  const onSubmit = form.handleSubmit(async (values) => {
    resend.reset();
    const parsed = loginFormSchema.safeParse(values);
    if (!parsed.success) {
      form.setError("root", { message: parsed.error.issues[0]?.message });
      return;
    }
    const outcome = await resend.mutateAsync(parsed.data).catch(() => null);
    // The email was verified meanwhile: the user is signed in now.
    if (outcome === "signed-in") await finishSignIn();
  });

  const errorMessage = form.formState.errors.root?.message ?? resend.error?.message;
  const sending = form.formState.isSubmitting;

  return (
    <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField label="Email" type="email" autoComplete="email" {...form.register("email")} />
      <PasswordField label="Password" autoComplete="current-password" {...form.register("password")} />
      <FormMessages
        error={errorMessage}
        success={resend.data === "sent" ? AUTH_MESSAGES.verificationEmailSent : undefined}
      />
      <button type="submit" className="button" disabled={sending}>
        {sending ? "Sending..." : "Resend verification email"}
      </button>
    </form>
  );
}

/** No code in the address: a signed-in but unverified user is asked to verify; anyone else has a bad link. */
function VerificationPrompt() {
  const me = useMe();
  const sendVerification = useSendVerificationEmail();

  if (me.isPending) return <p className="container page-loading">Loading...</p>;
  const user = me.data?.user;
  if (!user || user.emailVerified) {
    return (
      <Page title="Email Verification">
        <p role="alert" className="form-error">
          {AUTH_MESSAGES.verificationLinkMissing}
        </p>
        <BackToLogin />
      </Page>
    );
  }
  return (
    <Page title="Please verify your email">
      {/* Nothing here knows whether a link went out, so the page says what to do, not what was done. */}
      <p>
        Your email address <strong className="break-anywhere">{user.email}</strong> is not verified yet. Send
        yourself a verification link and open it to finish setting up your account.
      </p>
      <FormMessages
        error={sendVerification.error?.message}
        success={sendVerification.isSuccess ? AUTH_MESSAGES.verificationEmailSent : undefined}
      />
      <button
        type="button"
        className="button"
        disabled={sendVerification.isPending}
        onClick={() => sendVerification.mutate(user.email)}
      >
        {sendVerification.isPending ? "Sending..." : "Send verification email"}
      </button>
    </Page>
  );
}
