// @vitest-environment jsdom
// The cohorts of the Waitlist tab (docs/admin.md, "Cohorts"): a running Admit all is followed,
// with its progress, to its result.
import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdmissionRun, CohortList } from "../../../../shared/contracts/cohorts.ts";
import { renderRoutes } from "../../../testing/render.tsx";
import { CohortsPanel } from "./cohorts-panel.tsx";

vi.mock("../../../ui/toast.tsx", () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), paymentIssue: vi.fn() },
}));

const RUN_ID = "0b6f1a8e-7d1c-4c55-9a3e-2f1d9c0e7a11";

function run(fields: Partial<AdmissionRun>): AdmissionRun {
  return {
    id: RUN_ID,
    cohort: "January 2027",
    track: "advanced",
    status: "running",
    total: 4,
    admitted: 1,
    failed: 0,
    lastError: null,
    createdAt: "2026-11-24T10:00:00.000Z",
    finishedAt: null,
    ...fields,
  };
}

let followed: AdmissionRun;
let runCalls = 0;

function list(lastRun: AdmissionRun | null): CohortList {
  return {
    page: 1,
    pageSize: 6,
    total: 1,
    cohorts: [
      {
        name: "January 2027",
        startsOn: "2027-01-01",
        tracks: ["intermediate", "advanced"],
        byTrack: [
          { track: "intermediate", offered: true, paid: 0, admitted: 0, lastRun: null },
          { track: "advanced", offered: true, paid: 4, admitted: lastRun?.admitted ?? 0, lastRun },
        ],
      },
    ],
  };
}

beforeEach(() => {
  runCalls = 0;
  vi.stubGlobal("fetch", async (input: string) => {
    const url = new URL(input, "http://localhost");
    let body: unknown = { error: { code: "NOT_FOUND", message: "Not found." } };
    if (url.pathname === "/api/admin/cohorts") body = list(runCalls === 0 ? run({}) : followed);
    if (url.pathname === `/api/admin/cohort-admissions/${RUN_ID}`) {
      runCalls++;
      body = { run: followed };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show() {
  renderRoutes([{ path: "/admin", element: <CohortsPanel shownCohort="" onShowPlaces={() => undefined} /> }], "/admin?tab=waitlist");
}

async function advancedPanel() {
  // The first render waits for the panel's reads: on a loaded machine (CI's lanes at once) that took over findBy's 1 s.
  const heading = await screen.findByRole("heading", { name: "Advanced" }, { timeout: 5_000 });
  const panel = heading.closest(".cohort-track");
  if (!(panel instanceof HTMLElement)) throw new Error("no Advanced panel");
  return within(panel);
}

describe("Admit all in the Waitlist tab", () => {
  it("shows a running run's progress as it moves, and no second start", async () => {
    followed = run({ admitted: 2, failed: 1 });
    show();
    const panel = await advancedPanel();
    expect(await panel.findByText("Admitting: 3 of 4")).toBeTruthy();
    const bar = panel.getByRole("progressbar", { name: "Admitting: 3 of 4" });
    expect(bar.getAttribute("value")).toBe("3");
    expect(bar.getAttribute("max")).toBe("4");
    expect(panel.getByRole("button", { name: "Admit all Advanced learners of January 2027" })).toHaveProperty("disabled", true);
  });

  it("ends at the result, with the failures and those admitted by hand meanwhile", async () => {
    followed = run({ status: "done", admitted: 2, failed: 1, lastError: "connection reset", finishedAt: "2026-11-24T10:01:00.000Z" });
    show();
    const panel = await advancedPanel();
    expect(await panel.findByText("Admitted 2 of 4")).toBeTruthy();
    expect(panel.getByText("1 could not be admitted (connection reset). Start Admit all again to try them once more.")).toBeTruthy();
    expect(panel.getByText("1 was admitted by hand or refunded while it ran.")).toBeTruthy();
    expect(panel.queryByRole("progressbar")).toBeNull();
  });
});
