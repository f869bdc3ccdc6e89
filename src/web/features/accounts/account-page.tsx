// /account (docs/accounts.md): the signed-in person's name, email, password, signed-in devices and
// sign-in methods, and the deletion of the account. Each part is a form of its own, with its own
// message under it; the server decides and says why it refused.
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import {
  ACCOUNT_MESSAGES,
  changeEmailRequestSchema,
  changePasswordFormSchema,
  nameFormSchema,
  RECENT_SIGN_IN_MINUTES,
  SIGN_IN_METHODS,
  type AccountSession,
} from "../../../shared/contracts/account-settings.ts";
import type { MeUser } from "../../../shared/contracts/session.ts";
import { useSignedInUser } from "../../session/session.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { Modal } from "../../ui/modal.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { TextField } from "../../ui/text-field.tsx";
import {
  useAccountSessions,
  useChangeEmail,
  useChangeName,
  useChangePassword,
  useDeleteAccount,
  useLinkedAccounts,
  useSignInAgain,
  useSignOutOtherSessions,
  useSignOutSession,
} from "./account-api.ts";
import { errorCode } from "./accounts-api.ts";
import { useVerifyPendingPayments } from "../billing/pending-payments.seam.ts";
import { SmsCard } from "./sms-card.tsx";
import "./account-page.css";
import { DataSaverSection } from "./data-saver-section.tsx";
import { InstallCard } from "./install-card.tsx";

/** A moment as people read it: "14 March 2027, 09:30". */
function formatMoment(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short" });
}

/** The first message of a shared form schema's refusal, or null when the values pass. */
function formIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? null);
}

export function AccountPage() {
  const { user } = useSignedInUser();
  // A payment settled here no longer stands in the way of deleting the account (docs/accounts.md).
  useVerifyPendingPayments();
  const linked = useLinkedAccounts();
  // The guard shows this page only to a signed-in user.
  if (!user) return null;
  const providers = linked.data?.map((account) => account.providerId);
  const hasPassword = providers?.includes("credential");

  return (
    <section className="container section account-page">
      <h1>Your Account</h1>
      <p className="section-lead">Your name, email and password, where you are signed in, and your account itself.</p>
      <div className="account-sections">
        <NameCard user={user} />
        <EmailCard user={user} />
        <PasswordCard hasPassword={hasPassword} />
        <SignInMethodsCard providers={providers} error={linked.error?.message} />
        <SmsCard />
        <SessionsCard />
        <DataSaverSection />
        <InstallCard />
        <DeleteCard user={user} hasPassword={hasPassword} />
      </div>
    </section>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card stack account-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

type FormEndProps = {
  error: string | undefined;
  success: string | undefined;
  submitting: boolean;
  /** The button's label, and what it says while the form is sent. */
  labels: [string, string];
};

/** The end of each form: its messages, then its button. */
function FormEnd({ error, success, submitting, labels }: FormEndProps) {
  return (
    <>
      <FormMessages error={error} success={success} />
      <button type="submit" className="button" disabled={submitting}>
        {submitting ? labels[1] : labels[0]}
      </button>
    </>
  );
}

function NameCard({ user }: { user: MeUser }) {
  const changeName = useChangeName();
  const form = useForm<{ name: string }>({ defaultValues: { name: user.name } });
  const [saved, setSaved] = useState(false);

  const onSubmit = form.handleSubmit(async (values) => {
    setSaved(false);
    changeName.reset();
    const parsed = nameFormSchema.safeParse(values);
    const issue = formIssue(parsed);
    if (issue || !parsed.success) return form.setError("root", { message: issue ?? undefined });
    const done = await changeName.mutateAsync(parsed.data.name).then(
      () => true,
      () => false,
    );
    if (done) {
      form.reset({ name: parsed.data.name });
      setSaved(true);
    }
  });

  return (
    <Card id="account-name" title="Name">
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label="Full Name" autoComplete="name" {...form.register("name")} />
        <FormEnd
          error={form.formState.errors.root?.message ?? changeName.error?.message}
          success={saved ? ACCOUNT_MESSAGES.nameSaved : undefined}
          submitting={form.formState.isSubmitting}
          labels={["Save Name", "Saving..."]}
        />
      </form>
    </Card>
  );
}

function EmailCard({ user }: { user: MeUser }) {
  const changeEmail = useChangeEmail();
  const form = useForm<{ newEmail: string }>({ defaultValues: { newEmail: "" } });

  const onSubmit = form.handleSubmit(async (values) => {
    changeEmail.reset();
    const issue = formIssue(changeEmailRequestSchema.safeParse(values));
    if (issue) return form.setError("root", { message: issue });
    await changeEmail.mutateAsync(values).then(
      () => form.reset({ newEmail: "" }),
      () => undefined,
    );
  });

  return (
    <Card id="account-email" title="Email">
      <p>
        Your email is <strong className="break-anywhere">{user.email}</strong>. A new one takes effect once you open
        the link we send to it.
      </p>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label="New Email" type="email" autoComplete="email" {...form.register("newEmail")} />
        <FormEnd
          error={form.formState.errors.root?.message ?? changeEmail.error?.message}
          success={changeEmail.data?.message}
          submitting={form.formState.isSubmitting}
          labels={["Change Email", "Sending..."]}
        />
      </form>
    </Card>
  );
}

type PasswordForm = { currentPassword: string; newPassword: string; confirmPassword: string };

function PasswordCard({ hasPassword }: { hasPassword: boolean | undefined }) {
  const changePassword = useChangePassword();
  const form = useForm<PasswordForm>({ defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" } });
  const [changed, setChanged] = useState(false);

  const onSubmit = form.handleSubmit(async (values) => {
    setChanged(false);
    changePassword.reset();
    const issue = formIssue(changePasswordFormSchema.safeParse(values));
    if (issue) return form.setError("root", { message: issue });
    const done = await changePassword
      .mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword })
      .then(
        () => true,
        () => false,
      );
    if (done) {
      form.reset();
      setChanged(true);
    }
  });

  return (
    <Card id="account-password" title="Password">
      {hasPassword === undefined ? (
        <p className="muted">Loading...</p>
      ) : !hasPassword ? (
        <p>{ACCOUNT_MESSAGES.noPassword}</p>
      ) : (
        <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <PasswordField label="Current Password" autoComplete="current-password" {...form.register("currentPassword")} />
          <PasswordField
            label="New Password"
            hint="At least 8 characters. Your other devices will be signed out."
            autoComplete="new-password"
            {...form.register("newPassword")}
          />
          <PasswordField label="Confirm New Password" autoComplete="new-password" {...form.register("confirmPassword")} />
          <FormEnd
            error={form.formState.errors.root?.message ?? changePassword.error?.message}
            success={changed ? ACCOUNT_MESSAGES.passwordChanged : undefined}
            submitting={form.formState.isSubmitting}
            labels={["Change Password", "Changing..."]}
          />
        </form>
      )}
    </Card>
  );
}

function SignInMethodsCard({ providers, error }: { providers: string[] | undefined; error: string | undefined }) {
  return (
    <Card id="account-methods" title="Sign-in Methods">
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : !providers ? (
        <p className="muted">Loading...</p>
      ) : (
        <ul className="account-list">
          {SIGN_IN_METHODS.map((method) => {
            const isLinked = providers.includes(method.providerId);
            return (
              <li key={method.providerId}>
                <span>{method.label}</span>
                <span className={isLinked ? "account-tag account-tag-on" : "account-tag"}>
                  {isLinked ? "Linked" : "Not linked"}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function SessionsCard() {
  const sessions = useAccountSessions();
  const signOutOne = useSignOutSession();
  const signOutOthers = useSignOutOtherSessions();
  const list = sessions.data?.sessions;
  const others = list?.filter((session) => !session.current).length ?? 0;
  const error = sessions.error?.message ?? signOutOne.error?.message ?? signOutOthers.error?.message;
  const success = signOutOthers.isSuccess
    ? ACCOUNT_MESSAGES.otherSessionsSignedOut
    : signOutOne.isSuccess
      ? signOutOne.data.message
      : undefined;

  return (
    <Card id="account-sessions" title="Where You're Signed In">
      {!list && !sessions.isError && <p className="muted">Loading...</p>}
      {list && (
        <ul className="account-list account-sessions">
          {list.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              busy={signOutOne.isPending && signOutOne.variables === session.id}
              onSignOut={() => {
                signOutOthers.reset();
                signOutOne.mutate(session.id);
              }}
            />
          ))}
        </ul>
      )}
      <FormMessages error={error} success={success} />
      {others > 0 && (
        <button
          type="button"
          className="button button-secondary"
          disabled={signOutOthers.isPending}
          onClick={() => {
            signOutOne.reset();
            signOutOthers.mutate();
          }}
        >
          {signOutOthers.isPending ? "Signing out..." : "Sign Out All Other Devices"}
        </button>
      )}
    </Card>
  );
}

function SessionItem({ session, busy, onSignOut }: { session: AccountSession; busy: boolean; onSignOut(): void }) {
  return (
    <li>
      <div>
        <p className="account-device">
          {session.device}
          {session.current && <span className="account-tag account-tag-on">This device</span>}
        </p>
        <p className="muted account-session-details">
          {session.ipAddress && <>Address {session.ipAddress} · </>}
          Signed in {formatMoment(session.signedInAt)} · Last active {formatMoment(session.lastActiveAt)}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={busy}
          onClick={onSignOut}
        >
          {/* Named by its words, then which device (docs/accessibility.md). */}
          {busy ? "Signing out..." : "Sign Out"}
          <span className="visually-hidden">
            {" "}
            {session.device}, signed in {formatMoment(session.signedInAt)}
          </span>
        </button>
      )}
    </li>
  );
}

function DeleteCard({ user, hasPassword }: { user: MeUser; hasPassword: boolean | undefined }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <Card id="account-delete" title="Delete Account">
      <p>
        Deleting your account removes your progress, quiz answers, questions and sign-in methods for good. Records of
        your payments are kept without your name or email, as the law on financial records requires, and your
        certificates will show as revoked.
      </p>
      <button
        type="button"
        className="button button-danger"
        disabled={hasPassword === undefined}
        onClick={() => setConfirming(true)}
      >
        Delete Account
      </button>
      {confirming && hasPassword !== undefined && (
        <DeleteDialog user={user} hasPassword={hasPassword} onClose={() => setConfirming(false)} />
      )}
    </Card>
  );
}

function DeleteDialog({ user, hasPassword, onClose }: { user: MeUser; hasPassword: boolean; onClose(): void }) {
  const deletion = useDeleteAccount();
  const signInAgain = useSignInAgain();
  const form = useForm<{ password: string }>({ defaultValues: { password: "" } });

  const onSubmit = form.handleSubmit(async ({ password }) => {
    deletion.reset();
    if (hasPassword && !password) return form.setError("root", { message: ACCOUNT_MESSAGES.deletePasswordRequired });
    await deletion.mutateAsync(hasPassword ? { password } : {}).catch(() => undefined);
  });
  const needsSignIn = errorCode(deletion.error) === "SESSION_EXPIRED";
  const busy = form.formState.isSubmitting || deletion.isSuccess;

  return (
    <Modal
      title="Delete your account?"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="submit" form="delete-account-form" className="button button-danger" disabled={busy}>
            {busy ? "Deleting..." : "Delete My Account"}
          </button>
        </>
      }
    >
      <form id="delete-account-form" className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <p>
          The account <strong className="break-anywhere">{user.email}</strong> will be deleted at once. This cannot be
          undone:
        </p>
        <ul className="account-consequences">
          <li>your progress, quiz answers, questions, mentorship requests and signed-in devices are removed;</li>
          <li>your payments are kept for our financial records, without your name or email;</li>
          <li>your certificates show as revoked, without your name;</li>
          <li>we send a confirmation to {user.email}.</li>
        </ul>
        {hasPassword ? (
          <PasswordField label="Your Password" autoComplete="current-password" {...form.register("password")} />
        ) : (
          <p className="muted">
            Your account has no password: deleting it needs a sign-in in the last {RECENT_SIGN_IN_MINUTES} minutes.
          </p>
        )}
        <FormMessages error={form.formState.errors.root?.message ?? deletion.error?.message ?? signInAgain.error?.message}>
          {needsSignIn && (
            <button
              type="button"
              className="button button-secondary"
              disabled={signInAgain.isPending}
              onClick={() => signInAgain.mutate()}
            >
              Log In Again
            </button>
          )}
        </FormMessages>
      </form>
    </Modal>
  );
}
