// /mentorship (docs/product.md, "Questions and mentorship"): an Advanced learner asks for a 1-on-1
// session with a topic and the times that suit them, and follows their requests; anyone else sees
// what the Advanced plan includes and the way to it. The server decides who is Advanced.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { formatAcademyTime } from "../../../shared/academy-time.ts";
import {
  MENTORSHIP_STATUS_LABELS,
  mentorshipRequestSchema,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  type Mentorship,
  type MentorshipRequestInput,
} from "../../../shared/contracts/support.ts";
import { useSignedInUser } from "../../session/session.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextAreaField, TextField } from "../../ui/text-field.tsx";
import { useCancelMentorship, useMentorship, useRequestMentorship } from "./mentorship-api.ts";
import "./mentorship.css";

export function MentorshipPage() {
  const mentorship = useMentorship();

  return (
    <section className="container section narrow mentorship-page">
      <h1>1-on-1 Mentorship</h1>
      <p className="section-lead">
        A one-hour video session with an Academy mentor on what you choose: a strategy, your trading journal, a chart you
        are unsure about. Part of the Advanced plan. Times are set in Accra time (GMT).
      </p>
      {mentorship.isPending ? (
        <p role="status" className="muted">
          Loading your mentorship requests...
        </p>
      ) : mentorship.isError ? (
        <div role="alert" className="form-error load-error">
          <span>{mentorship.error.message}</span>
          <button type="button" className="button button-secondary button-small" onClick={() => void mentorship.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          {mentorship.data.eligible ? <RequestForm /> : <NotIncluded />}
          <Requests requests={mentorship.data.requests} />
        </>
      )}
    </section>
  );
}

function NotIncluded() {
  const { user } = useSignedInUser();
  if (user?.isAdmin) {
    return (
      <p className="card">
        Administrators answer mentorship requests in the <Link to="/admin?tab=mentorship">admin console</Link>.
      </p>
    );
  }
  return (
    <div className="card">
      <h2>{SUPPORT_MESSAGES.advancedOnly}</h2>
      <p>
        With the Advanced plan you get every program, pro trading strategies, algorithmic trading basics, portfolio
        management and 1-on-1 sessions with a mentor.
      </p>
      <Link to="/subscription" className="button">
        See the Advanced plan
      </Link>
    </div>
  );
}

function RequestForm() {
  const request = useRequestMentorship();
  const [sent, setSent] = useState(false);
  const form = useForm<MentorshipRequestInput>({
    resolver: zodResolver(mentorshipRequestSchema),
    defaultValues: { topic: "", preferredTimes: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    request.mutateAsync(values).then(
      () => {
        form.reset();
        setSent(true);
      },
      () => setSent(false),
    ),
  );

  return (
    <form className="card form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <h2>Request a session</h2>
      <TextField
        label="What would you like to work on?"
        maxLength={SUPPORT_LIMITS.topic}
        aria-invalid={errors.topic ? true : undefined}
        {...form.register("topic")}
      />
      <TextAreaField
        label="When can you meet?"
        hint="A few days and times that suit you, in Accra time (GMT), e.g. weekday evenings after 18:00."
        rows={3}
        maxLength={SUPPORT_LIMITS.preferredTimes}
        aria-invalid={errors.preferredTimes ? true : undefined}
        {...form.register("preferredTimes")}
      />
      <FormMessages
        error={errors.topic?.message ?? errors.preferredTimes?.message ?? (request.isError ? request.error.message : undefined)}
        success={sent ? SUPPORT_MESSAGES.requestSent : undefined}
      />
      <button type="submit" className="button" disabled={isSubmitting}>
        {isSubmitting ? "Sending..." : "Request a session"}
      </button>
    </form>
  );
}

function Requests({ requests }: { requests: Mentorship[] }) {
  const cancel = useCancelMentorship();
  if (requests.length === 0) return null;
  return (
    <section className="mentorship-requests" aria-labelledby="mentorship-requests-title">
      <h2 id="mentorship-requests-title">Your requests</h2>
      <FormMessages
        error={cancel.isError ? cancel.error.message : undefined}
        success={cancel.isSuccess ? SUPPORT_MESSAGES.requestCancelled : undefined}
      />
      <ul className="mentorship-list">
        {requests.map((item) => (
          <li key={item.id} className="card">
            <h3>{item.topic}</h3>
            <p>
              <span className={`mentorship-status mentorship-status-${item.status}`}>{MENTORSHIP_STATUS_LABELS[item.status]}</span>
            </p>
            {item.scheduledAt && (
              <p className="mentorship-time">
                <time dateTime={item.scheduledAt}>{formatAcademyTime(new Date(item.scheduledAt))}</time>
              </p>
            )}
            {item.note && <p>Note from the Academy team: {item.note}</p>}
            <p className="muted">Your times: {item.preferredTimes}</p>
            {item.status === "requested" && (
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={cancel.isPending}
                onClick={() => cancel.mutate(item.id)}
              >
                Cancel request
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
