// The sections of the learner page (docs/admin.md, "Learner page"): each a heading, a compact
// table in a box that scrolls sideways on a phone (the page itself never does), words when there
// is nothing to show, and "the latest n of m" when a list is longer than the page shows.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { Link } from "react-router";
import {
  isPlanChangeAction,
  LEARNER_MESSAGES,
  PLAN_CHANGE_LABELS,
  SIGN_IN_METHOD_LABELS,
  type Learner,
  type LearnerRecordPayment,
  type LearnerProgram,
  type PlanChange,
} from "../../../../shared/contracts/admin-learner.ts";
import { ADMIN_PAYMENT_STATUS_LABELS } from "../../../../shared/contracts/admin.ts";
import { formatCertificateDate } from "../../../../shared/contracts/certificates.ts";
import { PLAN_LABELS, PLANS } from "../../../../shared/plans.ts";
import { ADMIN_JOURNAL_ENDPOINTS } from "../../../../shared/contracts/journal.ts";
import { call } from "../../../lib/api.ts";
import { Pagination } from "../../../ui/pagination.tsx";
import { ADMIN_KEY, formatCedis, formatLocalDate, formatLocalDateTime } from "../admin-api.ts";
import { STATUS_BADGES } from "../billing/payments-tab.tsx";
import { AuditHead, AuditRow } from "../records/audit-entries.tsx";
import { UserLink } from "../user-link.tsx";
import { PlanBadge } from "./users-tab.tsx";

type Capped<T> = { total: number; entries: T[] };

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="learner-section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {title}
        {count !== undefined && <span className="learner-count"> ({count})</span>}
      </h2>
      {children}
    </section>
  );
}

/** A table in its own scrolling box, reachable by keyboard so that it can be scrolled without a mouse. */
function Table({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className="admin-table learner-table">
        <caption className="visually-hidden">{label}</caption>
        {children}
      </table>
    </div>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="table-empty table-wrap">{children}</p>;
}

/** "Showing the latest 50 of 62." when the list is longer than what the page shows. */
function Shown({ list, more }: { list: Capped<unknown>; more?: ReactNode }) {
  if (list.entries.length >= list.total) return null;
  return (
    <p className="muted learner-more">
      Showing the latest {list.entries.length} of {list.total}.{more && <> {more}</>}
    </p>
  );
}

function planName(plan: string | null): string {
  const known = PLANS.find((value) => value === plan);
  return known ? PLAN_LABELS[known] : (plan ?? "No plan");
}

// ---- Profile ------------------------------------------------------------------------------------

export function ProfileSection({ profile }: { profile: Learner["profile"] }) {
  const methods = profile.signInMethods.map((method) => SIGN_IN_METHOD_LABELS[method] ?? method);
  return (
    <Section title="Profile">
      <dl className="learner-facts">
        <Fact term="Name">{profile.name.trim() || <span className="muted">None given</span>}</Fact>
        <Fact term="Email">
          <a href={`mailto:${profile.email}`} className="learner-break">
            {profile.email}
          </a>{" "}
          {profile.emailVerified ? "(verified)" : <strong>(not verified)</strong>}
        </Fact>
        <Fact term="UID">
          <code>{profile.id}</code>
        </Fact>
        <Fact term="Signed up with">{profile.provider ?? "Unknown"}</Fact>
        <Fact term="Signs in with">{methods.length > 0 ? methods.join(", ") : "No sign-in method"}</Fact>
        <Fact term="Joined">{formatLocalDate(profile.createdAt)}</Fact>
        <Fact term="Last active">{formatLocalDateTime(profile.lastActiveAt)}</Fact>
      </dl>
    </Section>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="learner-fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

// ---- Plan and its history -----------------------------------------------------------------------

function waitlistText(place: NonNullable<Learner["plan"]["waitlist"]>): string {
  const paid = `${PLAN_LABELS[place.track]} track, ${place.cohort} cohort, paid ${formatLocalDate(place.createdAt)}`;
  return place.admitted ? `${paid}; admitted ${formatLocalDate(place.admittedAt)}.` : `${paid}; not admitted yet.`;
}

export function PlanSection({ plan, history }: { plan: Learner["plan"]; history: Learner["planHistory"] }) {
  return (
    <Section title="Plan">
      <dl className="learner-facts">
        <Fact term="Plan">
          <PlanBadge plan={plan.plan} />
        </Fact>
        <Fact term="Status">{plan.status}</Fact>
        <Fact term="Started">{formatLocalDate(plan.start)}</Fact>
        <Fact term="Ends">{formatLocalDate(plan.end)}</Fact>
        {plan.queued && (
          <Fact term="Then">
            {PLAN_LABELS[plan.queued.plan]} to {formatLocalDate(plan.queued.end)}
          </Fact>
        )}
        <Fact term="Waitlist">{plan.waitlist ? waitlistText(plan.waitlist) : LEARNER_MESSAGES.notOnWaitlist}</Fact>
      </dl>

      <h3 className="learner-subheading">Plan history</h3>
      {history.total === 0 ? (
        <Empty>{LEARNER_MESSAGES.noPlanHistory}</Empty>
      ) : (
        <Table label="Plan history, newest first">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Change</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">By</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {history.entries.map((change) => (
              <tr key={change.id}>
                <td className="cell-date">{formatLocalDateTime(change.createdAt)}</td>
                <td>{isPlanChangeAction(change.action) ? PLAN_CHANGE_LABELS[change.action] : change.action}</td>
                <td className="cell-state">{stateText(change.from)}</td>
                <td className="cell-state">{stateText(change.to)}</td>
                <td className="cell-email">{change.actorEmail ? <UserLink userId={change.actorId} email={change.actorEmail} /> : "System"}</td>
                <td className="cell-reason">{change.reason}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Shown list={history} />
    </Section>
  );
}

/** "Intermediate, active, to 1 Sep 2025"; a dash when the entry does not say. */
function stateText(state: PlanChange["to"]): string {
  if (!state) return "—";
  const parts = [planName(state.plan)];
  if (state.status) parts.push(state.status);
  if (state.end) parts.push(`to ${formatLocalDate(state.end)}`);
  return parts.join(", ");
}

// ---- Payments -----------------------------------------------------------------------------------

export function PaymentsSection({ payments }: { payments: Learner["payments"] }) {
  return (
    <Section title="Payments" count={payments.total}>
      {payments.total === 0 ? (
        <Empty>{LEARNER_MESSAGES.noPayments}</Empty>
      ) : (
        <Table label="Payments, newest first">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Reference</th>
              <th scope="col">Plan</th>
              <th scope="col" className="cell-amount">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Refunds</th>
            </tr>
          </thead>
          <tbody>
            {payments.entries.map((payment) => (
              <PaymentRow key={payment.id} payment={payment} />
            ))}
          </tbody>
        </Table>
      )}
      <Shown list={payments} />
    </Section>
  );
}

function PaymentRow({ payment }: { payment: LearnerRecordPayment }) {
  return (
    <tr>
      <td className="cell-date">{formatLocalDateTime(payment.createdAt)}</td>
      <td className="cell-reference">
        <code>{payment.reference}</code>
      </td>
      <td>
        <PlanBadge plan={payment.plan} showId />
        {payment.kind === "waitlist" && <span className="muted payment-kind">waitlist</span>}
      </td>
      <td className="cell-amount">
        {formatCedis(payment.amountMinor)} <span className="muted">{payment.currency}</span>
      </td>
      <td className="nowrap">
        <span className={`badge ${STATUS_BADGES[payment.status]}`}>{ADMIN_PAYMENT_STATUS_LABELS[payment.status]}</span>
        {payment.refundedMinor > 0 && <span className="muted payment-refunded">{formatCedis(payment.refundedMinor)} refunded</span>}
      </td>
      <td className="cell-refunds">
        {payment.refunds.length === 0 ? (
          <span className="muted">{LEARNER_MESSAGES.noRefunds}</span>
        ) : (
          <ul className="learner-refunds">
            {payment.refunds.map((refund) => (
              <li key={refund.id}>
                {formatCedis(refund.amountMinor)} {refund.status}, {formatLocalDate(refund.processedAt ?? refund.createdAt)}
                {refund.reason && <span className="muted">: {refund.reason}</span>}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

// ---- Progress -----------------------------------------------------------------------------------

function quizText(quiz: LearnerProgram["quiz"]): string {
  if (!quiz) return "No quiz";
  return `${quiz.passed ? "Passed" : "Not passed"}: best attempt ${quiz.correct} of ${quiz.questions} right, ${quiz.passMark} to pass`;
}

export function ProgressSection({ programs }: { programs: LearnerProgram[] }) {
  return (
    <Section title="Progress">
      {programs.length === 0 ? (
        <Empty>{LEARNER_MESSAGES.noPrograms}</Empty>
      ) : (
        <Table label="Progress per program">
          <thead>
            <tr>
              <th scope="col">Program</th>
              <th scope="col">Videos watched</th>
              <th scope="col">Quiz</th>
              <th scope="col">Started</th>
              <th scope="col">Complete</th>
            </tr>
          </thead>
          <tbody>
            {programs.map((program) => (
              <tr key={program.track}>
                <th scope="row" className="learner-row-head">
                  {program.title}
                </th>
                <td className="nowrap">
                  {program.watched} of {program.videos}
                </td>
                <td className="cell-quiz">{quizText(program.quiz)}</td>
                <td className="cell-date">{program.startedAt ? formatLocalDate(program.startedAt) : "Not started"}</td>
                <td>
                  {program.complete ? (
                    <span className="badge badge-success">Complete</span>
                  ) : (
                    <span className="badge badge-neutral">Not yet</span>
                  )}
                  {program.certificateId && (
                    <span className="learner-note">
                      <Link to={`/certificates/${program.certificateId}`}>{program.certificateId}</Link>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Section>
  );
}

/** Every quiz attempt per program, scored as learning scores it (docs/product.md, "Quiz attempts"). */
export function QuizScoresSection({ programs }: { programs: LearnerProgram[] }) {
  const rows = programs.flatMap((program) => (program.quiz?.attempts ?? []).map((attempt) => ({ program, attempt })));
  return (
    <Section title="Quiz attempts" count={rows.length}>
      {rows.length === 0 ? (
        <Empty>{LEARNER_MESSAGES.noQuizScores}</Empty>
      ) : (
        <Table label="Quiz attempts per program">
          <thead>
            <tr>
              <th scope="col">Program</th>
              <th scope="col">Attempt</th>
              <th scope="col">Score</th>
              <th scope="col">When</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ program, attempt }) => (
              <tr key={`${program.track}-${attempt.number}`}>
                <td>{program.title}</td>
                <td className="nowrap">{attempt.number}</td>
                <td className="nowrap">
                  {attempt.score} of {attempt.total}
                  {program.quiz && <span className="muted">, {program.quiz.passMark} to pass</span>}
                </td>
                <td className="cell-date">{formatLocalDateTime(attempt.finishedAt ?? attempt.startedAt)}</td>
                <td>
                  {!attempt.finished ? (
                    <span className="badge badge-neutral">In progress</span>
                  ) : attempt.passed ? (
                    <span className="badge badge-success">Passed</span>
                  ) : (
                    <span className="badge badge-failed">Not passed</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Section>
  );
}

export function QuizAttemptsSection({ attempts }: { attempts: Learner["quizAttempts"] }) {
  return (
    <Section title="Quiz answers" count={attempts.total}>
      {attempts.total === 0 ? (
        <Empty>{LEARNER_MESSAGES.noQuizAttempts}</Empty>
      ) : (
        <Table label="Quiz answers, newest first">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Program</th>
              <th scope="col">Attempt</th>
              <th scope="col">Question</th>
              <th scope="col">Answer</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {attempts.entries.map((attempt) => (
              <tr key={attempt.id}>
                <td className="cell-date">{formatLocalDateTime(attempt.createdAt)}</td>
                <td>{attempt.programTitle ?? attempt.track}</td>
                <td className="nowrap">{attempt.attempt}</td>
                <td className="nowrap">Question {attempt.questionIndex + 1}</td>
                <td className="cell-answer">{attempt.option}</td>
                <td>
                  {attempt.correct ? <span className="badge badge-success">Right</span> : <span className="badge badge-failed">Wrong</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Shown list={attempts} />
    </Section>
  );
}

// ---- Certificates and questions -----------------------------------------------------------------

export function CertificatesSection({ certificates }: { certificates: Learner["certificates"] }) {
  return (
    <Section title="Certificates" count={certificates.length}>
      {certificates.length === 0 ? (
        <Empty>{LEARNER_MESSAGES.noCertificates}</Empty>
      ) : (
        <Table label="Certificates, newest first">
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Program</th>
              <th scope="col">Issued</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {certificates.map((certificate) => (
              <tr key={certificate.id}>
                <td className="nowrap">
                  <Link to={`/certificates/${certificate.id}`}>{certificate.id}</Link>
                </td>
                <td>{certificate.programTitle}</td>
                <td className="cell-date">{formatCertificateDate(certificate.issuedAt)}</td>
                <td>
                  {certificate.revokedAt ? (
                    <>
                      <span className="badge badge-failed">Revoked</span>
                      <span className="learner-note">
                        {formatCertificateDate(certificate.revokedAt)}: {certificate.revokeReason}
                      </span>
                    </>
                  ) : (
                    <span className="badge badge-success">Valid</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Section>
  );
}

export function QuestionsSection({ questions }: { questions: Learner["questions"] }) {
  return (
    <Section title="Questions asked" count={questions.total}>
      {questions.total === 0 ? (
        <Empty>{LEARNER_MESSAGES.noQuestions}</Empty>
      ) : (
        <Table label="Questions asked, newest first">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Lesson</th>
              <th scope="col">Question</th>
              <th scope="col">Answers</th>
            </tr>
          </thead>
          <tbody>
            {questions.entries.map((question) => (
              <tr key={question.id}>
                <td className="cell-date">{formatLocalDateTime(question.createdAt)}</td>
                <td className="cell-lesson">
                  <Link to={`/program/${question.track}/${question.moduleId}`}>{question.lessonTitle}</Link>
                  {question.pinned && <span className="learner-note">Pinned</span>}
                </td>
                <td className="cell-message">{question.body}</td>
                <td className="nowrap">{question.answers}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Shown list={questions} more={<Link to="/admin?tab=questions">Answer questions in the Questions tab.</Link>} />
    </Section>
  );
}

// ---- Trading journal ----------------------------------------------------------------------------

/**
 * The learner's trading journal (docs/trading.md, "The journal"): private to them and the academy's
 * team. Its own read, a page of entries at a time, with the figures of all their closed trades.
 */
export function JournalSection({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const journal = useQuery({
    queryKey: [...ADMIN_KEY, "learner-journal", userId, { page }],
    queryFn: () => call(ADMIN_JOURNAL_ENDPOINTS.learner, { params: { id: userId }, query: { page } }),
    placeholderData: keepPreviousData,
  });
  if (journal.isPending) {
    return (
      <Section title="Trading journal">
        <p className="muted">Loading the journal...</p>
      </Section>
    );
  }
  if (journal.isError) {
    return (
      <Section title="Trading journal">
        <p role="alert" className="form-error">The journal could not be loaded. Try again in a moment.</p>
      </Section>
    );
  }
  const { entries, total, pageSize, stats } = journal.data;
  return (
    <Section title="Trading journal" count={total}>
      {total === 0 ? (
        <Empty>No trades in the journal.</Empty>
      ) : (
        <>
          <p className="learner-note">
            {stats.trades} closed {stats.trades === 1 ? "trade" : "trades"}
            {stats.open > 0 && `, ${stats.open} open`}
            {stats.winRate !== null && `; win rate ${stats.winRate}%, average ${stats.averageR} R, expectancy ${stats.expectancyR} R`}.
          </p>
          <Table label="Trading journal, newest traded first">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Trade</th>
                <th scope="col">Entry</th>
                <th scope="col">Stop-loss</th>
                <th scope="col">Exit</th>
                <th scope="col">Size (lots)</th>
                <th scope="col">Result</th>
                <th scope="col">Shared</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="cell-date">{entry.tradedOn}</td>
                  <td className="nowrap">
                    {entry.direction === "buy" ? "Buy" : "Sell"} {entry.instrument}
                    <span className="learner-note">{entry.kind === "real" ? "Real" : "Practice"}</span>
                  </td>
                  <td>{entry.entry}</td>
                  <td>{entry.stop}</td>
                  <td>{entry.exit ?? "Open"}</td>
                  <td>{entry.size}</td>
                  <td className="nowrap">{entry.r === null ? "" : `${entry.r} R`}</td>
                  <td>{entry.sharedAt ? "Shared" : ""}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pagination page={page} pageSize={pageSize} total={total} onPageChange={setPage} label="Trading journal pages" />
        </>
      )}
    </Section>
  );
}

// ---- Audit --------------------------------------------------------------------------------------

export function AuditSection({ audit, email }: { audit: Learner["audit"]; email: string }) {
  const everything = `/admin?${new URLSearchParams({ tab: "audit", user: email })}`;
  return (
    <Section title="Audit entries" count={audit.total}>
      {audit.total === 0 ? (
        <Empty>{LEARNER_MESSAGES.noAudit}</Empty>
      ) : (
        <Table label="Audit entries about this learner, newest first">
          <AuditHead withSubject={false} />
          <tbody>
            {audit.entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </tbody>
        </Table>
      )}
      <Shown list={audit} more={<Link to={everything}>See them all in the Audit tab.</Link>} />
    </Section>
  );
}
