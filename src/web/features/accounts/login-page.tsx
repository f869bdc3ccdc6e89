import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useSearchParams } from "react-router";
import {
  AUTH_MESSAGES,
  loginFormSchema,
  providerErrorMessage,
  SOCIAL_PROVIDERS,
  type Credentials,
  type SocialProvider,
} from "../../../shared/contracts/accounts.ts";
import { AUTH_LIBRARY_ENDPOINTS } from "../../../shared/contracts/auth-library.ts";
import { addressOf } from "../../../shared/contracts/endpoint.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { TextField } from "../../ui/text-field.tsx";
import { useSiteConfig } from "../../lib/site-config.ts";
import {
  isEmailNotVerified,
  useResendVerificationBySignIn,
  useSignIn,
  useSocialSignIn,
} from "./accounts-api.ts";
import { forgetPendingTargets, signInTarget, withRedirect } from "../../session/redirects.ts";
import { useMe } from "../../session/session.ts";
import { SignedOutOnly } from "./signed-out-only.tsx";
import {
  readLoginNotice,
  useFinishSignIn,
  type LoginNotice,
} from "./sign-in-flow.ts";

const SIGNED_OUT_ELSEWHERE: LoginNotice = { tone: "info", message: AUTH_MESSAGES.signedOutElsewhere };

const NOTICE_CLASS: Record<LoginNotice["tone"], string> = {
  success: "form-success",
  error: "form-error",
  info: "form-info",
};

/**
 * Which provider sent the visitor back. Our error returns name it (?provider=...), but MQL5's
 * registered redirect URI is /login itself, so its own refusal arrives as ?error=...&state=... only.
 * A return the auth library could not match to a sign-in names none.
 */
function returningProvider(searchParams: URLSearchParams): SocialProvider | null {
  const named = searchParams.get("provider");
  if (named) return SOCIAL_PROVIDERS.find((provider) => provider === named) ?? null;
  return searchParams.has("state") ? "mql5" : null;
}

export function LoginPage() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const code = searchParams.get("code");
  const state = searchParams.get("state");
  // MQL5's registered redirect URI is /login: its code is for the server to exchange.
  if (code && state && !searchParams.has("error")) return <Mql5Return code={code} state={state} />;
  // A provider's complaint is shown whoever arrives with it.
  if (searchParams.has("error")) return <LoginForm key={location.key} />;
  return (
    <SignedOutOnly>
      <LoginForm key={location.key} />
    </SignedOutOnly>
  );
}

function Mql5Return({ code, state }: { code: string; state: string }) {
  const started = useRef(false);
  useEffect(() => {
    // The code works once: hand it over once, even when development runs effects twice.
    if (started.current) return;
    started.current = true;
    window.location.replace(addressOf(AUTH_LIBRARY_ENDPOINTS.mql5Callback, undefined, { code, state }));
  }, [code, state]);
  return (
    <section className="container section narrow">
      <h1>Login</h1>
      <p role="status">Signing you in with MQL5...</p>
    </section>
  );
}

const PROVIDERS: readonly { provider: SocialProvider; label: string }[] = [
  { provider: "google", label: "Sign in with Google" },
  { provider: "mql5", label: "Sign in with MQL5" },
];

function LoginForm() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const { data: site } = useSiteConfig();
  const me = useMe();
  // What the last step said (registered, verified, signed out elsewhere) stands until the next
  // step starts: a sign-in attempt clears it (docs/product.md, "Accounts").
  const [notice, setNotice] = useState(
    () => readLoginNotice(location.state) ?? (me.data?.signedOutElsewhere ? SIGNED_OUT_ELSEWHERE : null),
  );
  const login = useLogin(searchParams, () => setNotice(null));
  const { form, resend, unverified } = login;
  const redirect = searchParams.get("redirect");
  const submitting = form.formState.isSubmitting;

  return (
    <section className="container section narrow auth-page">
      <h1>Login</h1>
      <p className="section-lead">Welcome back. Sign in to continue your program.</p>
      {notice && (
        <p role="status" className={NOTICE_CLASS[notice.tone]}>
          {notice.message}
        </p>
      )}
      <div className="card stack">
        <form className="form" noValidate onSubmit={(event) => void login.onSubmit(event)}>
          <TextField label="Email" type="email" autoComplete="email" {...form.register("email")} />
          <PasswordField label="Password" autoComplete="current-password" {...form.register("password")} />
          <FormMessages error={login.errorMessage} className="stack">
            {unverified && (
              <VerifyPrompt
                sent={resend.data === "sent"}
                error={resend.error?.message}
                sending={resend.isPending}
                onResend={() => login.resendVerification(unverified)}
              />
            )}
          </FormMessages>
          <button type="submit" className="button" disabled={submitting}>
            {submitting ? "Signing in..." : "Sign In"}
          </button>
        </form>
        <p className="auth-divider">
          <span>or</span>
        </p>
        <ProviderButtons configured={site?.auth} leavingFor={login.leavingFor} onSignIn={login.startSocialSignIn} />
        <p className="auth-links">
          <Link to={withRedirect("/forgot-password", redirect)}>Forgot Password?</Link>
          <span>
            Don&apos;t have an account? <Link to={withRedirect("/register", redirect)}>Sign Up</Link>
          </span>
        </p>
      </div>
    </section>
  );
}

/**
 * The sign-in requests of the login form (by password, by a provider, and the resent verification
 * email), and the one message the form shows of what went wrong.
 */
function useLogin(searchParams: URLSearchParams, onAttempt: () => void) {
  const signIn = useSignIn();
  const resend = useResendVerificationBySignIn();
  const social = useSocialSignIn();
  const finishSignIn = useFinishSignIn();
  const [unverified, setUnverified] = useState<Credentials | null>(null);
  const form = useForm<Credentials>({ defaultValues: { email: "", password: "" } });

  const onSubmit = form.handleSubmit(async (values) => {
    onAttempt();
    setUnverified(null);
    resend.reset();
    social.reset();
    // The spec has one message for the whole form: the schema reports it at the form level.
    const parsed = loginFormSchema.safeParse(values);
    if (!parsed.success) {
      form.setError("root", { message: parsed.error.issues[0]?.message });
      return;
    }
    try {
      await signIn.mutateAsync(parsed.data);
    } catch (error) {
      // The server has just mailed a fresh link: offer to send another.
      if (isEmailNotVerified(error)) setUnverified(parsed.data);
      return;
    }
    await finishSignIn();
  });

  function resendVerification(credentials: Credentials) {
    resend.mutate(credentials, {
      onSuccess: (outcome) => {
        if (outcome === "signed-in") void finishSignIn();
      },
    });
  }

  function startSocialSignIn(provider: SocialProvider) {
    onAttempt();
    form.clearErrors("root");
    signIn.reset();
    setUnverified(null);
    const target = signInTarget(searchParams.get("redirect"));
    // The target now travels with the provider, and comes back with an error too.
    forgetPendingTargets();
    const errorParams = new URLSearchParams(target === "/" ? { provider } : { provider, redirect: target });
    social.mutate({ provider, callbackURL: target, errorCallbackURL: `/login?${errorParams}` });
  }

  const signInError = signIn.error && !isEmailNotVerified(signIn.error) ? signIn.error.message : undefined;
  // A provider's complaint stands until the visitor tries again.
  const returnError = searchParams.get("error");
  const providerError =
    signIn.isIdle && social.isIdle && returnError
      ? providerErrorMessage(returningProvider(searchParams), returnError)
      : undefined;
  const errorMessage =
    form.formState.errors.root?.message ?? signInError ?? social.error?.message ?? providerError;
  const leavingFor = social.isPending || social.isSuccess ? social.variables?.provider : undefined;

  return { form, resend, unverified, onSubmit, resendVerification, startSocialSignIn, errorMessage, leavingFor };
}

type ProviderButtonsProps = {
  /** Which providers the server is set up for; undefined until the site configuration arrives. */
  configured: Record<SocialProvider, boolean> | undefined;
  /** The provider the visitor is on the way to, once they chose one. */
  leavingFor: SocialProvider | undefined;
  onSignIn: (provider: SocialProvider) => void;
};

function ProviderButtons({ configured, leavingFor, onSignIn }: ProviderButtonsProps) {
  return (
    <ul className="social-buttons">
      {PROVIDERS.map(({ provider, label }) => (
        <li key={provider}>
          <ProviderButton
            provider={provider}
            label={label}
            configured={configured?.[provider]}
            leaving={leavingFor === provider}
            busy={leavingFor !== undefined}
            onClick={() => onSignIn(provider)}
          />
        </li>
      ))}
    </ul>
  );
}

function VerifyPrompt(props: { sent: boolean; error: string | undefined; sending: boolean; onResend(): void }) {
  let message = (
    <p role="alert" className="form-info">
      {AUTH_MESSAGES.emailNotVerified}
    </p>
  );
  if (props.error) {
    message = (
      <p role="alert" className="form-error">
        {props.error}
      </p>
    );
  } else if (props.sent) {
    message = (
      <p role="status" className="form-success">
        {AUTH_MESSAGES.verificationEmailSent}
      </p>
    );
  }
  return (
    <div className="verify-prompt">
      {message}
      <button type="button" className="button button-secondary" disabled={props.sending} onClick={props.onResend}>
        {props.sending ? "Sending..." : "Resend verification email"}
      </button>
    </div>
  );
}

function ProviderButton(props: {
  provider: SocialProvider;
  label: string;
  configured: boolean | undefined;
  leaving: boolean;
  busy: boolean;
  onClick(): void;
}) {
  // Until the site configuration arrives the button waits, without claiming it is unavailable.
  const unavailable = props.configured === false;
  const hintId = `${props.provider}-sign-in-unavailable`;
  return (
    <span className="social-item" title={unavailable ? AUTH_MESSAGES.providerNotConfigured : undefined}>
      <button
        type="button"
        className={`button social-button social-${props.provider}`}
        disabled={props.configured !== true || props.busy}
        aria-describedby={unavailable ? hintId : undefined}
        title={unavailable ? AUTH_MESSAGES.providerNotConfigured : undefined}
        onClick={props.onClick}
      >
        <ProviderIcon provider={props.provider} />
        {props.leaving ? "Redirecting..." : props.label}
      </button>
      {unavailable && (
        <span id={hintId} className="visually-hidden">
          {AUTH_MESSAGES.providerNotConfigured}
        </span>
      )}
    </span>
  );
}

function ProviderIcon({ provider }: { provider: SocialProvider }) {
  // MQL5's mark, drawn as a picture as Google's is: the button's words are its name, and a voice
  // command starts with them, not with the mark's letters (docs/accessibility.md).
  if (provider === "mql5") {
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" className="provider-badge">
        <rect width="24" height="24" rx="5" fill="var(--navy)" />
        <text x="12" y="16" textAnchor="middle" fill="var(--gold)">
          M5
        </text>
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" width="20" height="20">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.2C12.5 13.7 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.8c4.3-4 6.9-9.9 6.9-17.2z" />
      <path fill="#FBBC05" d="M10.6 28.5c-.5-1.4-.8-2.9-.8-4.5s.3-3.1.8-4.5l-7.9-6.2C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.2z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.8-5.8l-7.4-5.8c-2.1 1.4-4.8 2.3-8.4 2.3-6.2 0-11.5-4.2-13.4-9.9l-7.9 6.2C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}
