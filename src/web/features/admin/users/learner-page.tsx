// /admin/users/{id}: one learner on one page (docs/admin.md, "Learner page"). The header names
// them and holds the console's actions on them (plan, Admit from Waitlist, Edit Progress,
// Certificates), the Users tab's own; below, a section per subject, each a compact table. Every
// action refreshes the console's data, this page included.
import { useState } from "react";
import { Link, useParams } from "react-router";
import { LEARNER_MESSAGES, type Learner } from "../../../../shared/contracts/admin-learner.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { useSignedInUser } from "../../../session/session.ts";
import "../../../ui/pagination.css";
import { useAdmitUser } from "./users-api.ts";
import { CertificatesModal } from "./certificates-modal.tsx";
import { isNoSuchUser, useLearner } from "./learner-api.ts";
import {
  AuditSection,
  CertificatesSection,
  JournalSection,
  PaymentsSection,
  PlanSection,
  ProfileSection,
  ProgressSection,
  QuestionsSection,
  QuizAttemptsSection,
  QuizScoresSection,
} from "./learner-sections.tsx";
import { ProgressModal } from "./progress-modal.tsx";
import { PlanBadge, PlanSelect } from "./users-tab.tsx";
import "../admin.css";
import "../users.css";
import "./learner.css";

const USERS_TAB = "/admin?tab=users";

export function LearnerPage() {
  const { id = "" } = useParams();
  const learner = useLearner(id);
  const notFound = isNoSuchUser(learner.error);
  const profile = learner.data?.profile;
  usePageTitle(profile ? profile.name.trim() || profile.email : notFound ? "No such user" : undefined);

  if (learner.isPending) {
    return (
      <div className="container admin-page learner-page">
        <p role="status" className="muted">
          {LEARNER_MESSAGES.loading}
        </p>
      </div>
    );
  }
  if (!learner.data) {
    return (
      <div className="container admin-page learner-page">
        <h1>{notFound ? LEARNER_MESSAGES.notFound : "Learner"}</h1>
        {!notFound && (
          <div role="alert" className="form-error load-error">
            <span>{learner.error?.message}</span>
            <button type="button" className="button button-secondary button-small" onClick={() => void learner.refetch()}>
              Try again
            </button>
          </div>
        )}
        <p>
          <Link to={USERS_TAB}>Back to the users</Link>
        </p>
      </div>
    );
  }
  return <LearnerView learner={learner.data} />;
}

function LearnerView({ learner }: { learner: Learner }) {
  const { profile, plan } = learner;
  const name = profile.name.trim();
  return (
    <div className="container admin-page learner-page">
      <nav aria-label="Breadcrumb" className="learner-breadcrumb">
        <Link to={USERS_TAB}>Users</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{name || profile.email}</span>
      </nav>
      <header className="learner-header">
        <div className="learner-identity">
          <h1>{name || profile.email}</h1>
          <p className="learner-subtitle">
            {name && <span className="learner-email">{profile.email}</span>}
            <PlanBadge plan={plan.plan} />
          </p>
        </div>
        <LearnerActions learner={learner} />
      </header>

      <ProfileSection profile={profile} />
      <PlanSection plan={plan} history={learner.planHistory} />
      <PaymentsSection payments={learner.payments} />
      <ProgressSection programs={learner.programs} />
      <QuizScoresSection programs={learner.programs} />
      <QuizAttemptsSection attempts={learner.quizAttempts} />
      <CertificatesSection certificates={learner.certificates} />
      <QuestionsSection questions={learner.questions} />
      <JournalSection userId={profile.id} />
      <AuditSection audit={learner.audit} email={profile.email} />
    </div>
  );
}

/** The Users tab's actions on this learner, with its calls and toasts. */
function LearnerActions({ learner }: { learner: Learner }) {
  const { profile, plan } = learner;
  const { user: me } = useSignedInUser();
  const admit = useAdmitUser();
  const [open, setOpen] = useState<"progress" | "certificates" | null>(null);
  const user = { id: profile.id, email: profile.email, plan: plan.plan };
  const isSelf = me?.id === profile.id;

  return (
    <div className="learner-actions" role="group" aria-label="Actions">
      <PlanSelect user={user} isSelf={isSelf} />
      <button
        type="button"
        className="button button-small"
        disabled={!plan.canAdmit || admit.isPending}
        onClick={() => admit.mutate(user)}
      >
        Admit from Waitlist
      </button>
      <button type="button" className="button button-secondary button-small" onClick={() => setOpen("progress")}>
        Edit Progress
      </button>
      <button type="button" className="button button-secondary button-small" onClick={() => setOpen("certificates")}>
        Certificates
      </button>
      {open === "progress" && <ProgressModal user={user} onClose={() => setOpen(null)} />}
      {open === "certificates" && <CertificatesModal user={user} linkToLearner={false} onClose={() => setOpen(null)} />}
    </div>
  );
}
