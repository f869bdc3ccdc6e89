// A user's email, wherever the console shows it, as a link to their learner page
// (docs/admin.md, "Learner page").
import { Link } from "react-router";

export function adminUserPath(userId: string): string {
  return `/admin/users/${encodeURIComponent(userId)}`;
}

/** The email as a link to the learner's page; a deleted account (no id) is the email alone. */
export function UserLink({ userId, email }: { userId: string | null; email: string }) {
  if (!userId) return <EmailText email={email} />;
  return (
    <Link to={adminUserPath(userId)}>
      <EmailText email={email} />
    </Link>
  );
}

/** An email that wraps after its "@" when the column is narrow, rather than mid-word. */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
