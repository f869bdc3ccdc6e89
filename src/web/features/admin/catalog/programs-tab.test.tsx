// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ComponentProps } from "react";
import { ADMIN_MESSAGES, type AdminModule, type AdminProgram, type AdminQuiz } from "../../../../shared/contracts/admin.ts";
import { EXERCISE_MESSAGES } from "../../../../shared/contracts/exercises.ts";
import type { PriceDataSet } from "../../../../shared/contracts/price-data.ts";
import type PriceChart from "../../exercises/price-chart.tsx";
import { renderWithQueries } from "../../../testing/render.tsx";
import { notify } from "../../../ui/toast.tsx";
import { programRequest, type ProgramFormValues } from "./program-form.tsx";
import { formatPriceUsd, ProgramsTab } from "./programs-tab.tsx";
import { questionFromDraft, retryWaitFromField } from "./quiz-modal.tsx";
import { polyfillDialog } from "../../../testing/dialog.ts";

vi.mock("../../../ui/toast.tsx", () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), paymentIssue: vi.fn() },
}));

// The chart library draws on a canvas jsdom does not have: a stand-in says what it was given, and
// its buttons tap the chart at a price.
vi.mock("../../exercises/price-chart.tsx", () => ({
  default: ({ label, lines = [], markers = [], onPick }: ComponentProps<typeof PriceChart>) => (
    <div role="img" aria-label={label}>
      <p>{[...markers.map((marker) => `${marker.tone} ${marker.text}`), ...lines.map((line) => `${line.tone} ${line.title} ${line.price}`)].join("; ")}</p>
      {onPick && (
        <>
          <button type="button" onClick={() => onPick(1.0845678)}>
            Tap 1.0845678
          </button>
          <button type="button" onClick={() => onPick(1.0862345)}>
            Tap 1.0862345
          </button>
        </>
      )}
    </div>
  ),
}));

function program(overrides: Partial<AdminProgram> & Pick<AdminProgram, "id" | "title">): AdminProgram {
  return {
    level: "beginner",
    archived: false,
    draft: false,
    draftQuestionCount: 0,
    duration: "4 weeks",
    priceUsd: null,
    order: 1,
    description: ["Charts", "Risk"],
    modules: [],
    questionCount: 0,
    updatedAt: "2025-08-01T10:00:00.000Z",
    ...overrides,
  };
}

const beginner = program({
  id: "beginner",
  title: "Beginner Program",
  modules: [
    { id: "m-1", title: "Welcome", description: "Start here", youtubeId: "bQy71i4MtSQ", notes: "", freePreview: false, draft: false, attachments: [], exercise: null },
    { id: "m-2", title: "Candles", description: "", youtubeId: "9VN2f8YqR0M", notes: "", freePreview: false, draft: false, attachments: [], exercise: null },
  ],
  questionCount: 1,
});
const intermediate = program({ id: "intermediate", level: "intermediate", title: "Intermediate Program", priceUsd: 35, order: 2 });

// 600 hourly bars; bar 250 opens at 13:00 UTC on 8 January 2024 (docs/trading.md, "Price data").
const eurusd: PriceDataSet = {
  id: "5d0f6c52-7a8e-4d7b-9a51-2f6f2b8f0c11",
  name: "EURUSD H1, January 2024",
  instrument: "EURUSD",
  pipSize: "0.0001",
  timeframe: "H1",
  source: "metatrader5",
  illustrative: false,
  barCount: 600,
  firstBarAt: "2023-12-29T03:00:00.000Z",
  lastBarAt: "2024-01-23T10:00:00.000Z",
  createdAt: "2025-08-01T10:00:00.000Z",
};
const barTime = (position: number) => new Date(Date.UTC(2024, 0, 8, 13) + (position - 250) * 3_600_000).toISOString();
let dataSets: PriceDataSet[] = [eurusd];

/** GET /api/admin/price-data (the newest sets) and /api/admin/price-data/:id/bars?from=&count=. */
function priceDataAnswer(path: string): Answer {
  const url = new URL(path, "http://localhost");
  if (url.pathname === "/api/admin/price-data") return { body: { page: 1, pageSize: 20, total: dataSets.length, dataSets } };
  const from = Number(url.searchParams.get("from"));
  const count = Number(url.searchParams.get("count"));
  const bars = Array.from({ length: Math.min(count, eurusd.barCount - from) }, (_, index) => ({
    time: barTime(from + index),
    open: "1.0850",
    high: "1.0860",
    low: "1.0840",
    close: "1.0855",
  }));
  return { body: { dataSet: eurusd, bars } };
}

const replayExercise = {
  kind: "replay" as const,
  dataSetId: eurusd.id,
  startBar: 250,
  explanation: "",
  answerLow: "",
  answerHigh: "",
  tolerancePips: "",
  balance: "1000",
  currency: "USD" as const,
  passR: "0",
  maxRiskPercent: "2",
  retryWaitMinutes: 10,
};

const quiz: AdminQuiz = {
  title: "Beginner Quiz",
  questions: [{ question: "What is a candle?", options: ["A) A price bar", "B) A light"], answer: "A" }],
};

type Call = { method: string; path: string; body: unknown };
let calls: Call[] = [];
type Answer = { status?: number; body: unknown };
let answer: (call: Call) => Answer;

beforeAll(polyfillDialog);

beforeEach(() => {
  calls = [];
  dataSets = [eurusd];
  answer = (call) => {
    if (call.path.startsWith("/api/admin/price-data")) return priceDataAnswer(call.path);
    if (call.path === "/api/admin/programs" && call.method === "GET") return { body: { programs: [beginner, intermediate] } };
    if (call.path.endsWith("/quiz")) return { body: call.method === "PUT" ? call.body : quiz };
    if (call.method === "DELETE") return { body: { ok: true } };
    return { body: { program: beginner } };
  };
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const call = {
      method: init.method ?? "GET",
      path: input,
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const { status = 200, body } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function showProgramsTab() {
  renderWithQueries(<ProgramsTab />);
}

const rowOf = (title: string) => {
  const row = screen.getByRole("rowheader", { name: new RegExp(title) }).closest("tr");
  if (!row) throw new Error(`no row for ${title}`);
  return within(row);
};

const changes = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const lastCall = (method: string) => calls.filter((call) => call.method === method).at(-1);

describe("Save Program rules (docs/product.md, Admin console)", () => {
  const values: ProgramFormValues = {
    id: "advanced",
    level: "advanced",
    title: " Advanced ",
    duration: "4 weeks",
    price: "",
    order: "",
    description: " Pro strategies, Algorithms ,, ",
  };

  it("requires the id, the title and the duration", () => {
    expect(programRequest({ ...values, title: "  " }, [])).toEqual({ error: ADMIN_MESSAGES.programRequired });
    expect(programRequest({ ...values, id: "" }, [])).toEqual({ error: ADMIN_MESSAGES.programRequired });
    expect(programRequest({ ...values, duration: "" }, [])).toEqual({ error: ADMIN_MESSAGES.programRequired });
  });

  it("takes an id that can be an address and is not one the site keeps, and a level", () => {
    for (const id of ["Risk Management", "risk_management", "-risk", "risk--management", "x", "a".repeat(61)]) {
      expect(programRequest({ ...values, id }, [])).toEqual({ error: ADMIN_MESSAGES.programIdInvalid });
    }
    expect(programRequest({ ...values, id: "preview" }, [])).toEqual({ error: ADMIN_MESSAGES.programIdReserved("preview") });
    expect(programRequest({ ...values, id: "risk-management", level: "" }, [])).toEqual({ error: ADMIN_MESSAGES.levelRequired });
    expect(programRequest({ ...values, id: "risk-management-2", level: "intermediate" }, [])).toMatchObject({
      program: { id: "risk-management-2", level: "intermediate" },
    });
  });

  it("sends an empty price and order as null, splits and trims the description, keeps module ids", () => {
    const request = programRequest(values, [
      { key: "m-1", id: "m-1", title: "Kept", description: "", youtubeId: "bQy71i4MtSQ", notes: "", freePreview: false, exercise: null },
      { key: "new-1", title: "Added", description: "New", youtubeId: "", notes: "## Read this", freePreview: true, exercise: null },
    ]);
    expect(request).toEqual({
      program: {
        id: "advanced",
        level: "advanced",
        title: "Advanced",
        duration: "4 weeks",
        priceUsd: null,
        order: null,
        description: ["Pro strategies", "Algorithms"],
        modules: [
          { id: "m-1", title: "Kept", description: "", youtubeId: "bQy71i4MtSQ", notes: "", freePreview: false, exercise: null },
          { title: "Added", description: "New", youtubeId: "", notes: "## Read this", freePreview: true, exercise: null },
        ],
      },
    });
  });

  it("takes numbers for the price and the order", () => {
    expect(programRequest({ ...values, price: "12.5", order: "3" }, [])).toMatchObject({
      program: { priceUsd: 12.5, order: 3 },
    });
    expect(programRequest({ ...values, price: "free" }, [])).toEqual({ error: ADMIN_MESSAGES.priceInvalid });
    expect(programRequest({ ...values, order: "1.5" }, [])).toEqual({ error: ADMIN_MESSAGES.orderInvalid });
  });

  it("shows a price in USD, or N/A", () => {
    expect(formatPriceUsd(35)).toBe("$35");
    expect(formatPriceUsd(12.5)).toBe("$12.50");
    expect(formatPriceUsd(null)).toBe("N/A");
  });
});

describe("Question rules (docs/product.md, Quiz questions)", () => {
  it("requires all three fields and splits the options on commas", () => {
    expect(questionFromDraft({ question: "Q?", options: " ", answer: "A", explanation: "" })).toEqual({
      error: ADMIN_MESSAGES.questionRequired,
    });
    expect(questionFromDraft({ question: "Q?", options: "A) Buy , B) Sell,", answer: "b", explanation: " " })).toEqual({
      question: { question: "Q?", options: ["A) Buy", "B) Sell"], answer: "B" },
    });
  });

  it("keeps an explanation, trimmed; none when left empty (docs/product.md, Quiz attempts)", () => {
    expect(questionFromDraft({ question: "Q?", options: "A) Buy, B) Sell", answer: "A", explanation: " Demand lifts price. " })).toEqual({
      question: { question: "Q?", options: ["A) Buy", "B) Sell"], answer: "A", explanation: "Demand lifts price." },
    });
  });

  it("reads the wait before a new attempt: empty is 10 minutes, 0 to a week, anything else refused", () => {
    expect(retryWaitFromField("")).toBe(10);
    expect(retryWaitFromField(" 0 ")).toBe(0);
    expect(retryWaitFromField("10080")).toBe(10_080);
    expect(retryWaitFromField("10081")).toBeUndefined();
    expect(retryWaitFromField("2.5")).toBeUndefined();
    expect(retryWaitFromField("-1")).toBeUndefined();
  });

  it("catches what the server would refuse on Save Quiz", () => {
    expect(questionFromDraft({ question: "Q?", options: "Buy, Sell", answer: "A", explanation: "" })).toEqual({
      error: ADMIN_MESSAGES.optionFormat,
    });
    expect(questionFromDraft({ question: "Q?", options: "A) Buy, B) Sell", answer: "C", explanation: "" })).toEqual({
      error: ADMIN_MESSAGES.answerNotOption,
    });
  });
});

describe("Programs tab (docs/product.md, Admin console)", () => {
  it("lists the programs with duration, USD price or N/A, module count and their buttons", async () => {
    showProgramsTab();
    await screen.findByRole("rowheader", { name: /Beginner Program/ });
    expect(rowOf("Beginner Program").getByText("N/A")).toBeTruthy();
    expect(rowOf("Intermediate Program").getByText("$35")).toBeTruthy();
    expect(rowOf("Beginner Program").getByRole("cell", { name: "2" })).toBeTruthy();
    for (const name of ["Edit", "Delete", "Manage Quiz"]) {
      expect(rowOf("Beginner Program").getByRole("button", { name: new RegExp(`^${name}`) })).toBeTruthy();
    }
  });

  it("adds a program with its own id in a level, however many the level has", async () => {
    showProgramsTab();
    await screen.findByRole("heading", { name: "Add New Program" });
    const level = screen.getByLabelText("Level");
    expect(within(level).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Choose a level",
      "Beginner (free)",
      "Intermediate",
      "Advanced",
    ]);

    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    expect(await screen.findByText(ADMIN_MESSAGES.programRequired)).toBeTruthy();
    expect(lastCall("POST")).toBeUndefined();

    changes("Program ID", "risk-management");
    expect(screen.getByText(/Its address: \/program\/risk-management\./)).toBeTruthy();
    changes("Title", "Risk Management Bootcamp");
    changes("Duration", "2 weeks");
    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    expect(await screen.findByText(ADMIN_MESSAGES.levelRequired)).toBeTruthy();
    expect(lastCall("POST")).toBeUndefined();

    changes("Level", "intermediate");
    changes("Price (USD)", "50");
    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(ADMIN_MESSAGES.programSaved));
    expect(lastCall("POST")).toMatchObject({
      path: "/api/admin/programs",
      body: { id: "risk-management", level: "intermediate", title: "Risk Management Bootcamp", priceUsd: 50, order: null, modules: [] },
    });
  });

  it("shows each program's level, marks an archived one, and archives or restores from its row", async () => {
    const archived = program({ id: "crypto-basics", level: "advanced", title: "Crypto Basics", archived: true, order: 5 });
    answer = (call) =>
      call.method === "POST"
        ? { body: { program: { ...archived, archived: false } } }
        : { body: { programs: [beginner, intermediate, archived] } };
    showProgramsTab();
    await screen.findByRole("rowheader", { name: /Crypto Basics/ });
    expect(rowOf("Intermediate Program").getByRole("cell", { name: "Intermediate" })).toBeTruthy();
    expect(rowOf("Crypto Basics").getByText("Archived")).toBeTruthy();
    expect(rowOf("Beginner Program").queryByText("Archived")).toBeNull();

    fireEvent.click(rowOf("Crypto Basics").getByRole("button", { name: "Restore Crypto Basics" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(ADMIN_MESSAGES.restored("Crypto Basics")));
    expect(lastCall("POST")).toMatchObject({ path: "/api/admin/programs/crypto-basics/archive", body: { archived: false } });
    expect(rowOf("Beginner Program").getByRole("button", { name: "Archive Beginner Program" })).toBeTruthy();
  });

  // The longest walk through the tab (a dozen edits, each a render): more than the default 5 s on two busy cores.
  it("edits a program and its modules, keeping module ids, and shows the server's validation message", async () => {
    showProgramsTab();
    await screen.findByRole("rowheader", { name: /Beginner Program/ });
    fireEvent.click(rowOf("Beginner Program").getByRole("button", { name: /^Edit/ }));
    await screen.findByRole("heading", { name: "Edit Program" });
    expect(screen.getByLabelText("Program ID").hasAttribute("disabled")).toBe(true);
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Beginner Program");

    const modules = within(screen.getByRole("list", { name: "Modules in this program" }));
    expect(modules.getAllByRole("link", { name: /Watch on YouTube/ })[0]?.getAttribute("href")).toBe(
      "https://www.youtube.com/watch?v=bQy71i4MtSQ",
    );

    const addModule = screen.getByRole("button", { name: "Add Module" });
    expect(addModule.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(addModule);
    expect(await screen.findByText(ADMIN_MESSAGES.moduleRequired)).toBeTruthy();

    changes("Module Title", "Risk");
    changes("YouTube Video ID", "https://example.com/video");
    expect(addModule.getAttribute("aria-disabled")).toBeNull();
    fireEvent.click(addModule);
    expect(await screen.findByText(ADMIN_MESSAGES.youtubeIdInvalid)).toBeTruthy();
    changes("YouTube Video ID", "https://youtu.be/dQw4w9WgXcQ");
    fireEvent.click(addModule);
    await modules.findByText("Risk", { selector: ".admin-module-title" });

    fireEvent.click(screen.getByRole("button", { name: "Move Risk up" }));
    fireEvent.click(screen.getByRole("button", { name: /^Delete Welcome/ }));
    fireEvent.click(screen.getByRole("button", { name: /^Edit Candles/ }));
    expect(screen.getByRole("button", { name: "Update Module" })).toBeTruthy();
    changes("Module Title", "Candlesticks");
    fireEvent.click(screen.getByRole("button", { name: "Update Module" }));
    await screen.findByRole("button", { name: "Add Module" });

    answer = (call) =>
      call.method === "PUT"
        ? { status: 400, body: { error: { code: "VALIDATION", message: ADMIN_MESSAGES.moduleNotInProgram } } }
        : { body: { programs: [beginner, intermediate] } };
    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    expect(await screen.findByText(ADMIN_MESSAGES.moduleNotInProgram)).toBeTruthy();
    expect(lastCall("PUT")).toMatchObject({
      path: "/api/admin/programs/beginner",
      body: {
        title: "Beginner Program",
        modules: [
          { title: "Risk", youtubeId: "dQw4w9WgXcQ" },
          { id: "m-2", title: "Candlesticks", youtubeId: "9VN2f8YqR0M" },
        ],
      },
    });
    expect(notify.error).not.toHaveBeenCalled();

    answer = (call) =>
      call.method === "PUT"
        ? { status: 500, body: { error: { code: "INTERNAL", message: "An unexpected error occurred." } } }
        : { body: { programs: [beginner, intermediate] } };
    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(ADMIN_MESSAGES.programSaveFailed));

    fireEvent.click(screen.getByRole("button", { name: "Cancel Edit" }));
    expect(await screen.findByRole("heading", { name: "Add New Program" })).toBeTruthy();
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("");
  });

  it("deletes a program after confirmation", async () => {
    showProgramsTab();
    await screen.findByRole("rowheader", { name: /Intermediate Program/ });
    fireEvent.click(rowOf("Intermediate Program").getByRole("button", { name: /^Delete/ }));
    const dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByText(ADMIN_MESSAGES.deleteConfirm)).toBeTruthy();
    fireEvent.click(dialog.getByRole("button", { name: "Delete Program" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(ADMIN_MESSAGES.programDeleted));
    expect(lastCall("DELETE")?.path).toBe("/api/admin/programs/intermediate");
  });

  it("manages a quiz in a modal: loads it, adds and edits questions, saves it", async () => {
    showProgramsTab();
    await screen.findByRole("rowheader", { name: /Beginner Program/ });
    fireEvent.click(rowOf("Beginner Program").getByRole("button", { name: /^Manage Quiz/ }));
    const dialog = within(await screen.findByRole("dialog", { name: "Manage Quiz for Beginner Program" }));
    expect(dialog.getByText("Loading...")).toBeTruthy();
    expect(((await dialog.findByLabelText("Quiz Title")) as HTMLInputElement).value).toBe("Beginner Quiz");

    const list = dialog.getByRole("region", { name: "Quiz questions" });
    expect(list.tabIndex).toBe(0);
    expect(within(list).getByText("What is a candle?")).toBeTruthy();

    fireEvent.click(dialog.getByRole("button", { name: "Add Question" }));
    expect(await dialog.findByText(ADMIN_MESSAGES.questionRequired)).toBeTruthy();

    changes("Question", "Which way is up?");
    changes("Options (comma-separated)", "A) Buy, B) Sell, C) Hold");
    changes("Answer", "c");
    changes("Explanation (optional)", "Hold when the trend is unclear.");
    fireEvent.click(dialog.getByRole("button", { name: "Add Question" }));
    await within(list).findByText("Which way is up?");

    fireEvent.click(dialog.getByRole("button", { name: "Edit question 1" }));
    expect((dialog.getByLabelText("Options (comma-separated)") as HTMLInputElement).value).toBe("A) A price bar, B) A light");
    changes("Answer", "B");
    fireEvent.click(dialog.getByRole("button", { name: "Update Question" }));
    await dialog.findByRole("button", { name: "Add Question" });

    // The pass mark: from 1 to the number of questions (docs/product.md, "Completion and certificates").
    fireEvent.change(dialog.getByLabelText("Pass mark"), { target: { value: "3" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save Quiz" }));
    expect((await dialog.findByRole("alert")).textContent).toBe(ADMIN_MESSAGES.passMarkInvalid);
    fireEvent.change(dialog.getByLabelText("Pass mark"), { target: { value: "2" } });
    // The wait before a new attempt (docs/product.md, "Quiz attempts"): whole minutes.
    fireEvent.change(dialog.getByLabelText("Wait before a new attempt (minutes)"), { target: { value: "1.5" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save Quiz" }));
    expect((await dialog.findByRole("alert")).textContent).toBe(ADMIN_MESSAGES.retryWaitInvalid);
    fireEvent.change(dialog.getByLabelText("Wait before a new attempt (minutes)"), { target: { value: "5" } });
    fireEvent.click(dialog.getByRole("button", { name: "Save Quiz" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(ADMIN_MESSAGES.quizSaved));
    expect(lastCall("PUT")).toEqual({
      method: "PUT",
      path: "/api/admin/programs/beginner/quiz",
      body: {
        title: "Beginner Quiz",
        questions: [
          { question: "What is a candle?", options: ["A) A price bar", "B) A light"], answer: "B" },
          {
            question: "Which way is up?",
            options: ["A) Buy", "B) Sell", "C) Hold"],
            answer: "C",
            explanation: "Hold when the trend is unclear.",
          },
        ],
        passMark: 2,
        retryWaitMinutes: 5,
      },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});

describe("A lesson as a chart exercise (docs/trading.md, Exercises)", () => {
  async function editBeginner() {
    showProgramsTab();
    await screen.findByRole("rowheader", { name: /Beginner Program/ });
    fireEvent.click(rowOf("Beginner Program").getByRole("button", { name: /^Edit/ }));
    await screen.findByRole("heading", { name: "Edit Program" });
  }

  it("adds a replay on a data set from a start bar, previews what the learner sees and sends it with Save Program", async () => {
    await editBeginner();
    changes("Module Title", "Trade the breakout");
    fireEvent.click(screen.getByLabelText("Chart exercise"));
    expect(screen.queryByLabelText("YouTube Video ID")).toBeNull();
    expect((screen.getByLabelText("Replay trade") as HTMLInputElement).checked).toBe(true);

    const dataSet = await screen.findByLabelText("Price data");
    expect(within(dataSet).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Choose price data",
      "EURUSD H1, January 2024 (EURUSD H1, 600 bars)",
    ]);
    changes("Price data", eurusd.id);
    // A start bar with a full history is filled in; the steps move it, within the set.
    expect((screen.getByLabelText("Start bar") as HTMLInputElement).value).toBe("120");
    changes("Start bar", "255");
    fireEvent.click(screen.getByRole("button", { name: "-10" }));
    fireEvent.click(screen.getByRole("button", { name: "+1" }));
    fireEvent.click(screen.getByRole("button", { name: "+1" }));
    fireEvent.click(screen.getByRole("button", { name: "+1" }));
    fireEvent.click(screen.getByRole("button", { name: "-1" }));
    expect((screen.getByLabelText("Start bar") as HTMLInputElement).value).toBe("247");
    changes("Start bar", "250");

    expect(
      await screen.findByText("The learner sees 121 bars, up to 8 Jan 2024 13:00 UTC (bar 250 of 600). 349 bars are left to play out the trade."),
    ).toBeTruthy();
    expect(lastCall("GET")?.path).toBe(`/api/admin/price-data/${eurusd.id}/bars?from=130&count=121`);
    const chart = await screen.findByRole("img", { name: /^Chart of EURUSD H1, January 2024, the start bar marked/ });
    expect(within(chart).getByText("decision Start")).toBeTruthy();

    changes("Practice balance", "500");
    changes("Balance currency", "GHS");
    changes("Pass at a result of at least (R)", "1");
    changes("Explanation", "  The close above the range was the signal.  ");
    fireEvent.click(screen.getByRole("button", { name: "Add Module" }));
    const modules = within(screen.getByRole("list", { name: "Modules in this program" }));
    await modules.findByText("Trade the breakout", { selector: ".admin-module-title" });
    expect(modules.getByText("Exercise: replay trade")).toBeTruthy();

    // The server checks each setting against the data set; its words are shown as other save errors are.
    answer = (call) =>
      call.method === "PUT"
        ? { status: 400, body: { error: { code: "VALIDATION", message: EXERCISE_MESSAGES.maxRisk } } }
        : { body: { programs: [beginner, intermediate] } };
    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    expect(await screen.findByText(EXERCISE_MESSAGES.maxRisk)).toBeTruthy();
    expect(lastCall("PUT")).toMatchObject({
      path: "/api/admin/programs/beginner",
      body: {
        modules: [
          { id: "m-1", title: "Welcome", youtubeId: "bQy71i4MtSQ", exercise: null },
          { id: "m-2", title: "Candles", exercise: null },
          {
            title: "Trade the breakout",
            youtubeId: "",
            notes: "",
            exercise: {
              kind: "replay",
              dataSetId: eurusd.id,
              startBar: 250,
              balance: "500",
              currency: "GHS",
              passR: "1",
              maxRiskPercent: "2",
              explanation: "The close above the range was the signal.",
              retryWaitMinutes: 10,
            },
          },
        ],
      },
    });
  });

  it("refuses a start bar the set does not have, before Save Program", async () => {
    await editBeginner();
    changes("Module Title", "Too late");
    fireEvent.click(screen.getByLabelText("Chart exercise"));
    await screen.findByLabelText("Price data");
    changes("Price data", eurusd.id);
    changes("Start bar", "599");
    expect(await screen.findByText("Choose a start bar from 1 to 598 to see the chart.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Add Module" }));
    expect(await screen.findByText(EXERCISE_MESSAGES.startBar(598))).toBeTruthy();
    // A marked level is read at its start bar: the last bar will do.
    fireEvent.click(screen.getByLabelText("Mark the level"));
    expect(await screen.findByText(/The learner sees 121 bars, up to .* \(bar 599 of 600\)\.$/)).toBeTruthy();
  });

  it("shows an exercise lesson's kind in its row, and edits it as a marked level by tapping the chart", async () => {
    const breakout: AdminModule = {
      id: "m-3",
      title: "Breakout",
      description: "",
      youtubeId: null,
      notes: "",
      freePreview: false,
      draft: false,
      attachments: [],
      exercise: replayExercise,
    };
    const withExercise = { ...beginner, modules: [...beginner.modules, breakout] };
    answer = (call) => {
      if (call.path.startsWith("/api/admin/price-data")) return priceDataAnswer(call.path);
      if (call.method === "PUT") return { body: { program: withExercise } };
      return { body: { programs: [withExercise, intermediate] } };
    };
    await editBeginner();
    const modules = within(screen.getByRole("list", { name: "Modules in this program" }));
    expect(modules.getByText("Exercise: replay trade")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: /^Edit Breakout/ }));
    expect((screen.getByLabelText("Chart exercise") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Start bar") as HTMLInputElement).value).toBe("250");
    expect(((await screen.findByLabelText("Price data")) as HTMLSelectElement).value).toBe(eurusd.id);

    fireEvent.click(screen.getByLabelText("Mark the level"));
    // A tap fills the answer, to a tenth of a pip (5 decimals for a pip of 0.0001); the toggle picks the edge.
    fireEvent.click(await screen.findByRole("button", { name: "Tap 1.0845678" }));
    expect((screen.getByLabelText("Answer (price, or the zone's lower edge)") as HTMLInputElement).value).toBe("1.08457");
    fireEvent.click(screen.getByLabelText("Upper edge"));
    fireEvent.click(screen.getByRole("button", { name: "Tap 1.0862345" }));
    expect((screen.getByLabelText("Zone's upper edge (empty for one level)") as HTMLInputElement).value).toBe("1.08623");
    const chart = screen.getByRole("img", { name: /^Chart of EURUSD H1/ });
    await within(chart).findByText("decision Start; answer Zone low 1.08457; answer Zone high 1.08623");
    changes("Tolerance (pips)", "5");
    changes("Wait after an attempt that did not pass (minutes)", "30");
    fireEvent.click(screen.getByRole("button", { name: "Update Module" }));
    await screen.findByRole("button", { name: "Add Module" });
    expect(modules.getByText("Exercise: mark the level")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Save Program" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(ADMIN_MESSAGES.programSaved));
    expect(lastCall("PUT")?.body).toMatchObject({
      modules: [
        { id: "m-1" },
        { id: "m-2" },
        {
          id: "m-3",
          exercise: {
            kind: "level",
            dataSetId: eurusd.id,
            startBar: 250,
            answerLow: "1.08457",
            answerHigh: "1.08623",
            tolerancePips: "5",
            retryWaitMinutes: 30,
          },
        },
      ],
    });
  });

  it("sends the administrator to the Price Data tab when there is no data set yet", async () => {
    dataSets = [];
    await editBeginner();
    fireEvent.click(screen.getByLabelText("Chart exercise"));
    const link = await screen.findByRole("link", { name: /^Price Data tab/ });
    expect(link.closest("p")?.textContent).toBe("Upload price data in the Price Data tab (opens in a new tab) first.");
    expect(link.getAttribute("href")).toBe("/admin?tab=price-data");
  });
});
