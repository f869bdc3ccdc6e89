// The program list (/program; docs/product.md, "Home and program list"): every program, or the one
// chosen on the home page.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { ProgramSummary } from "../../../shared/contracts/catalog.ts";
import { LEARNING_MESSAGES } from "../../../shared/contracts/learning.ts";
import type { MeUser } from "../../../shared/contracts/session.ts";
import { isTrack, tracksForPlan } from "../../../shared/plans.ts";
import { notify } from "../../ui/toast.tsx";
import { meQuery, useSignedInUser } from "../../session/session.ts";
import { useProgress } from "./learning-api.ts";
import { usePrograms } from "./catalog-api.ts";
import { ProgramCard } from "./program-cards.tsx";

/** Beginner is free for everyone; other programs open with the plan that includes them. */
function canOpen(user: MeUser, programId: string): boolean {
  if (!isTrack(programId)) return false;
  return tracksForPlan("legacyFree").includes(programId) || user.tracks.includes(programId);
}

/**
 * Back from a verified payment (/program?payment=success): say so once, then drop the parameter
 * so that a reload does not say it again. The plan changed, so the session is read afresh.
 */
function usePaymentSuccess(): boolean {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const paid = searchParams.get("payment") === "success";
  const [verified, setVerified] = useState(false);
  if (paid && !verified) setVerified(true);
  // StrictMode runs effects twice; the toast must still show once.
  const announced = useRef(false);

  useEffect(() => {
    if (!paid || announced.current) return;
    announced.current = true;
    notify.success(LEARNING_MESSAGES.paymentSuccess);
    void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    setSearchParams(
      (params) => {
        params.delete("payment");
        return params;
      },
      { replace: true },
    );
  }, [paid, queryClient, setSearchParams]);

  return verified;
}

export function ProgramListPage() {
  const programs = usePrograms();
  const progress = useProgress();
  const { user } = useSignedInUser();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const paymentVerified = usePaymentSuccess();
  const selectedId = searchParams.get("program");

  function choose(programId: string) {
    const target = `/program/${encodeURIComponent(programId)}`;
    if (!user) void navigate(`/login?${new URLSearchParams({ redirect: target })}`);
    else void navigate(canOpen(user, programId) ? target : "/subscription");
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
    // A failed progress read only costs the Continue label.
    const watched = (program: ProgramSummary) => progress.data?.[program.id]?.watched ?? 0;
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
                action={watched(program) > 0 ? "Continue" : "Start"}
                note={user && !canOpen(user, program.id) ? "Not included in your plan: you will see the plans first." : null}
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
      {paymentVerified && (
        <p role="status" className="form-success page-notice">
          {LEARNING_MESSAGES.paymentSuccess}
        </p>
      )}
      {content}
    </section>
  );
}
