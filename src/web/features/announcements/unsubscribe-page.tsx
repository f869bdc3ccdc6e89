// /unsubscribe?token=...: the link at the foot of every announcement. Opening it changes nothing
// (mail scanners open links too); the button does, with a POST (docs/admin.md, "Announcements").
import { useSearchParams } from "react-router";
import { ANNOUNCEMENT_MESSAGES } from "../../../shared/contracts/announcements.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { useUnsubscribe } from "./announcements-api.ts";

export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const unsubscribe = useUnsubscribe();

  return (
    <section className="container section narrow auth-page">
      <h1>Unsubscribe from announcements</h1>
      <div className="card stack">
        {token === "" ? (
          <p role="alert" className="form-error">
            {ANNOUNCEMENT_MESSAGES.badToken}
          </p>
        ) : unsubscribe.isSuccess ? (
          <p role="status" className="form-success">
            {unsubscribe.data.message}
          </p>
        ) : (
          <>
            <p>{ANNOUNCEMENT_MESSAGES.unsubscribeLead}</p>
            <p>{ANNOUNCEMENT_MESSAGES.unsubscribeKeeps}</p>
            <FormMessages error={unsubscribe.isError ? unsubscribe.error.message : undefined} />
            <button type="button" className="button" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
              {unsubscribe.isPending ? "Unsubscribing..." : ANNOUNCEMENT_MESSAGES.unsubscribeButton}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
