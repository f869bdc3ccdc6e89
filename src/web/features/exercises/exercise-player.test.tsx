// @vitest-environment jsdom
// The learner's chart exercise (docs/trading.md, "Exercises"): a replay trade placed, refused at its
// fields, kept on the device offline and sent once back online.
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LearnerExercise } from "../../../shared/contracts/exercises.ts";
import { createQueryClient } from "../../lib/query-client.ts";
import { renderWithQueries } from "../../testing/render.tsx";
import { ExercisePlayer } from "./exercise-player.tsx";
import { keptAnswerKey, readKeptAnswer } from "./kept-answers.ts";

// The chart is a picture drawn by a library jsdom has no canvas for; its name is what is checked.
vi.mock("./price-chart.tsx", () => ({ default: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));

const HOUR = 3600;
const START = Date.UTC(2024, 0, 8, 11, 0) / 1000;
/** A bar as the server writes it: "time,open,high,low,close". */
const bar = (index: number, close: number) => [START + index * HOUR, close, (close + 0.001).toFixed(5), (close - 0.001).toFixed(5), close].join(",");
const FIRST_BARS = [bar(0, 1.084), bar(1, 1.0845), bar(2, 1.08512)];

const EXERCISE: LearnerExercise = {
  kind: "replay",
  dataSet: { name: "Range and breakout", instrument: "EURUSD", pipSize: "0.0001", timeframe: "H1", illustrative: true },
  balance: { amount: "1000", currency: "USD" },
  passR: "0",
  maxRiskPercent: "2",
  tolerancePips: "",
  retryWaitMinutes: 10,
  bars: FIRST_BARS.join("\n"),
  decision: 2,
  barsLeft: true,
  attempt: 1,
  attempts: [],
  answer: null,
  explanation: null,
  passed: false,
  nextAttemptAt: null,
};

const SCORED: LearnerExercise = {
  ...EXERCISE,
  bars: [...FIRST_BARS, bar(3, 1.087), bar(4, 1.0895)].join("\n"),
  attempts: [{ number: 1, startedAt: "2026-11-29T10:00:00.000Z", scoredAt: "2026-11-29T10:05:00.000Z", passed: true }],
  answer: {
    kind: "replay",
    decidedAt: START + 2 * HOUR,
    order: { direction: "buy", stop: "1.08300", target: "1.08900", riskPercent: "1" },
    passed: true,
    result: {
      outcome: "target",
      bothInOneBar: false,
      exitPrice: "1.08900",
      exitTime: new Date((START + 4 * HOUR) * 1000).toISOString(),
      barsHeld: 2,
      entry: "1.08512",
      stopPips: "21.2",
      pips: "38.8",
      r: "1.83",
      lots: "0.04",
      riskAmount: { usd: "10.00", ghs: "150.00" },
      profit: { usd: "15.52", ghs: null },
    },
  },
  explanation: "The range broke upwards.",
  passed: true,
};

const ME = { user: { id: "user-1", email: "a@example.com", name: "Ama", emailVerified: true, provider: "email", plan: "beginner", accessLevel: "beginner", tracks: ["beginner"], isAdmin: false, subscriptionEnd: null } };
const PATH = "/api/programs/beginner/modules/m-1/exercise";

type Answer = { status: number; body: unknown } | "network";
let submissionAnswer: Answer;
const sent: unknown[] = [];
const steps: unknown[] = [];
let online = true;
let opened: LearnerExercise;

beforeEach(() => {
  online = true;
  opened = EXERCISE;
  vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
  // A phone's width: jsdom has no media queries.
  vi.stubGlobal("matchMedia", () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, "http://localhost");
    const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (url.pathname === PATH) return reply(200, opened);
    if (url.pathname === `${PATH}/step`) {
      steps.push(JSON.parse(String(init.body)));
      // Two bars are left after the decision bar.
      const shown = [...FIRST_BARS, bar(3, 1.086), bar(4, 1.087)].slice(0, 3 + steps.length);
      return reply(200, { ...EXERCISE, bars: shown.join("\n"), decision: shown.length - 1, barsLeft: shown.length < 5 });
    }
    if (url.pathname === `${PATH}/submissions`) {
      if (submissionAnswer === "network") throw new TypeError("Failed to fetch");
      sent.push(JSON.parse(String(init.body)));
      return reply(submissionAnswer.status, submissionAnswer.body);
    }
    return reply(404, { error: { code: "NOT_FOUND", message: "Not found." } });
  });
});

/** The browser going offline or back online, as it says it. */
function goOnline(now: boolean) {
  online = now;
  act(() => {
    window.dispatchEvent(new Event(now ? "online" : "offline"));
  });
}

afterEach(() => {
  goOnline(true);
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sent.length = 0;
  steps.length = 0;
});

/** Opens the exercise with the app's own query client: offline, a change fails at once rather than waiting. */
async function openExercise(form = "Your trade") {
  const client = createQueryClient();
  client.setQueryData(["me"], ME);
  renderWithQueries(<ExercisePlayer track="beginner" moduleId="m-1" onPassed={() => undefined} />, client);
  await screen.findByRole("heading", { name: form });
}

function fillTrade() {
  fireEvent.click(screen.getByLabelText("Buy"));
  fireEvent.change(screen.getByLabelText("Stop-loss"), { target: { value: "1.08300" } });
  fireEvent.change(screen.getByLabelText("Take-profit"), { target: { value: "1.08900" } });
}

describe("ExercisePlayer, a replay trade", () => {
  it("shows the data, the chart's summary, the rule, the entry and the trade's fields", async () => {
    await openExercise();
    expect(screen.getByText("Illustrative data, not real prices")).toBeTruthy();
    expect(screen.getByText("Range and breakout")).toBeTruthy();
    expect(await screen.findByRole("img", { name: /^EURUSD H1 candlestick chart, 3 bars to 8 Jan 2024 13:00 UTC; last close 1\.08512/ })).toBeTruthy();
    expect(screen.getByText("Practice balance: 1,000 USD. Pass: a result of at least 0 R, risking at most 2%.", { normalizer: (text) => text.replace(/\s+/g, " ").trim() })).toBeTruthy();
    expect(screen.getByText(/Entry \(the close of the last bar\)/).textContent).toContain("1.08512");
    expect((screen.getByLabelText("Risk (% of the practice balance)") as HTMLInputElement).value).toBe("1");
    for (const name of ["Next bar", "Play", "+10 bars", "Stop-loss", "Take-profit", "Place Trade"]) expect(screen.getByRole("button", { name })).toBeTruthy();
  });

  it("asks for a direction before sending, and shows the server's refusal at each field", async () => {
    await openExercise();
    fireEvent.click(screen.getByRole("button", { name: "Place Trade" }));
    expect(screen.getByText("Choose buy or sell.")).toBeTruthy();
    expect(sent).toEqual([]);

    submissionAnswer = { status: 200, body: { ok: false, errors: { stop: "Put the stop-loss below the entry for a buy.", order: "A trade at the last bar cannot play out." } } };
    fillTrade();
    fireEvent.click(screen.getByRole("button", { name: "Place Trade" }));
    expect(await screen.findByText("Put the stop-loss below the entry for a buy.")).toBeTruthy();
    const stop = screen.getByLabelText("Stop-loss");
    expect(stop.getAttribute("aria-invalid")).toBe("true");
    expect(stop.getAttribute("aria-describedby")).toContain(screen.getByText("Put the stop-loss below the entry for a buy.").id);
    expect(screen.getByRole("alert").textContent).toBe("A trade at the last bar cannot play out.");
    expect(sent).toEqual([{ kind: "replay", attempt: 1, direction: "buy", stop: "1.08300", target: "1.08900", riskPercent: "1" }]);
  });

  it("shows the scored trade: the outcome, the figures, Passed and the explanation", async () => {
    await openExercise();
    submissionAnswer = { status: 200, body: { ok: true, exercise: SCORED } };
    fillTrade();
    fireEvent.click(screen.getByRole("button", { name: "Place Trade" }));
    const heading = await screen.findByRole("heading", { name: "Target hit" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText("Passed")).toBeTruthy();
    expect(screen.getByText("+38.8 pips")).toBeTruthy();
    expect(screen.getByText("+1.83 R")).toBeTruthy();
    expect(screen.getByText("0.04 lots, risking 1%")).toBeTruthy();
    expect(screen.getByText("The range broke upwards.")).toBeTruthy();
    expect(screen.getByText("You have passed this exercise.")).toBeTruthy();
  });

  it("keeps an answer made offline on the device, and sends it once back online", async () => {
    await openExercise();
    goOnline(false);
    submissionAnswer = "network";
    fillTrade();
    fireEvent.click(screen.getByRole("button", { name: "Place Trade" }));
    expect(
      await screen.findByText("You are offline: your answer is kept on this phone and will be sent when you are back online."),
    ).toBeTruthy();
    expect(readKeptAnswer(localStorage, keptAnswerKey("user-1", "m-1"))?.submission).toMatchObject({ direction: "buy", stop: "1.08300" });

    submissionAnswer = { status: 200, body: { ok: true, exercise: SCORED } };
    goOnline(true);
    expect(await screen.findByRole("heading", { name: "Target hit" })).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(readKeptAnswer(localStorage, keptAnswerKey("user-1", "m-1"))).toBeNull();
  });

  it("plays one bar at a time until no bar is left", async () => {
    await openExercise();
    fireEvent.click(screen.getByRole("button", { name: "Play" }));
    expect(screen.getByRole("button", { name: "Pause" })).toBeTruthy();
    await screen.findByRole("img", { name: /5 bars to/ }, { timeout: 3_000 });
    expect(steps).toEqual([{ attempt: 1, count: 1 }, { attempt: 1, count: 1 }]);
    expect(screen.getByRole("button", { name: "Play" }).getAttribute("aria-disabled")).toBe("true");
    expect(screen.getByText("This is the last bar of the data: no bar is left to step to.")).toBeTruthy();
  });

  it("says that stepping needs a connection, offline", async () => {
    await openExercise();
    goOnline(false);
    fireEvent.click(screen.getByRole("button", { name: "Next bar" }));
    expect(screen.getByText("Stepping needs a connection.")).toBeTruthy();
  });
});

describe("ExercisePlayer, a marked level", () => {
  const LEVEL: LearnerExercise = { ...EXERCISE, kind: "level", tolerancePips: "5", barsLeft: false };

  it("sends the price as typed and shows it against the answer, with the distance", async () => {
    opened = LEVEL;
    await openExercise("Your level");
    expect(screen.getByText("Pass: within 5 pips of the answer.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Next bar" })).toBeNull();
    submissionAnswer = {
      status: 200,
      body: {
        ok: true,
        exercise: {
          ...LEVEL,
          answer: { kind: "level", price: "1.0852", distancePips: "2.0", answerLow: "1.0850", answerHigh: "1.0850", passed: true },
          explanation: "",
          passed: true,
        },
      },
    };
    fireEvent.change(screen.getByLabelText("Price"), { target: { value: "1.0852" } });
    expect(await screen.findByRole("img", { name: /; Your level 1\.08520$/ })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Check My Answer" }));
    expect(await screen.findByRole("heading", { name: "Your answer" })).toBeTruthy();
    expect(sent).toEqual([{ kind: "level", attempt: 1, price: "1.0852" }]);
    expect(screen.getByText("2.0 pips")).toBeTruthy();
    expect(screen.getByRole("img").getAttribute("aria-label")).toContain("Answer 1.08500, Your level 1.08520");
  });
});
