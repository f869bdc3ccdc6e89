// The program list (/program; docs/product.md, "Home and program list"): every program, or the one
// chosen on the home page, with the learner's progress on those begun.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { ProgramSummary } from "../../../shared/contracts/catalog.ts";
import { paymentOutcomeMessage } from "../../../shared/contracts/billing.ts";
import { LEARNING_MESSAGES } from "../../../shared/contracts/learning.ts";
import type { MeUser } from "../../../shared/contracts/session.ts";
import { tracksForPlan } from "../../../shared/plans.ts";
import { meQuery, useSignedInUser } from "../../session/session.ts";
import { useVerifyPendingPayments } from "../billing/pending-payments.seam.ts";
import { progressQuery, useNextStep, useProgress } from "./learning-api.ts";
import { usePrograms } from "./catalog-api.ts";
import { trackPath } from "./course.ts";
import { ContinueLearning, ProgramCard, progressAction } from "./program-cards.tsx";

/** Beginner programs are free for everyone; the others open with the plan that includes their level. */
function canOpen(user: MeUser, program: ProgramSummary): boolean {
  return tracksForPlan("legacyFree").includes(program.level) || user.tracks.includes(program.level);
}

/**
 * Back from a verified payment (/program?payment=success): say so once, then drop the parameter
 * so that a reload does not say it again. The plan changed, so the session is read afresh.
 */
/**
 * After a payment, the page says once what it did (docs/product.md, "Home and program list"): an
 * upgrade, a renewal or time queued after the current plan. Said on the page, not in a toast too.
 */
function usePaymentOutcome(): string | null {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const outcome = paymentOutcomeMessage(searchParams.get("payment"));
  const [notice, setNotice] = useState<string | null>(null);
  if (outcome && notice !== outcome) setNotice(outcome);

  useEffect(() => {
    if (!outcome) return;
    // The plan changed: what it opens, and so the next step, are read afresh.
    void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    void queryClient.invalidateQueries({ queryKey: progressQuery.queryKey });
    setSearchParams(
      (params) => {
        params.delete("payment");
        return params;
      },
      { replace: true },
    );
  }, [outcome, queryClient, setSearchParams]);

  return notice;
}

/**
 * After a payment, the first card is the program just bought (docs/product.md, "Home and program
 * list"), as the home page's hero shows it; nothing when the payment opened nothing new to study.
 */
function WhatWasBought() {
  const step = useNextStep();
  if (step.data?.kind !== "start" && step.data?.kind !== "continue") return null;
  if (!step.data.bought) return null;
  return (
    <div className="page-notice">
      <ContinueLearning />
    </div>
  );
}

export function ProgramListPage() {
  const programs = usePrograms();
  const progress = useProgress();
  const { user } = useSignedInUser();
  useVerifyPendingPayments();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const paymentNotice = usePaymentOutcome();
  const selectedId = searchParams.get("program");

  function choose(programId: string) {
    const target = trackPath(programId);
    const program = programs.data?.find((entry) => entry.id === programId);
    if (!user) void navigate(`/login?${new URLSearchParams({ redirect: target })}`);
    else if (!program || !canOpen(user, program)) void navigate("/subscription");
    // Straight to the lesson the learner is at; the track's own address opens at it too.
    else void navigate(progressAction(programId, progress.data?.[programId])?.to ?? target);
  }

  function backToAll() {
    void navigate("/program");
  }

  let content;
  // Without progress the buttons would read Start for everyone, so wait for both.
  if (programs.isPending || progress.isPending) {
    content = (
      <p role="status" className="section-loading">
        Loading programs...
      </p>
    );
  } else if (programs.isError) {
    content = (
      <p role="alert" className="form-error">
        Programs could not be loaded. Please refresh the page.
      </p>
    );
  } else {
    const sorted = programs.data.toSorted((a, b) => a.order - b.order);
    const shown = selectedId === null ? sorted : sorted.filter((program) => program.id === selectedId);
    // A failed progress read only costs the progress and the Continue label.
    const progressOf = (program: ProgramSummary) => progress.data?.[program.id];
    content = (
      <>
        {shown.length === 0 ? (
          <p className="card">{LEARNING_MESSAGES.notFound}</p>
        ) : (
          <ul className={selectedId === null ? "program-grid" : "program-grid program-grid-single"}>
            {shown.map((program) => (
              <ProgramCard
                key={program.id}
                program={program}
                heading="h2"
                action={progressAction(program.id, progressOf(program))?.label ?? "Start"}
                progress={progressOf(program)}
                note={user && !canOpen(user, program) ? "Not included in your plan: you will see the plans first." : null}
                onChoose={choose}
              />
            ))}
          </ul>
        )}
        {selectedId !== null && (
          <p className="page-actions">
            <button type="button" className="button button-secondary" onClick={backToAll}>
              Back to all programs
            </button>
          </p>
        )}
      </>
    );
  }

  return (
    <section className="container section">
      <h1>Programs</h1>
      <p className="section-lead">Each program runs for 4 weeks of short videos and a quiz.</p>
      {paymentNotice && (
        <p role="status" className="form-success page-notice">
          {paymentNotice}
        </p>
      )}
      {paymentNotice && <WhatWasBought />}
      {content}
    </section>
  );
}
