// @vitest-environment jsdom
// An exercise answer made offline (docs/trading.md, "Exercises"): kept per learner and lesson, sent
// once when the browser is back online, and gone once the server has answered.
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEPT_ANSWERS_PREFIX } from "../../../shared/offline.ts";
import { ApiRequestError, NETWORK_ERROR_MESSAGE } from "../../lib/api.ts";
import { keepAnswer, keptAnswerKey, readKeptAnswer, sendKeptAnswer, type KeptAnswer } from "./kept-answers.ts";

const trade: KeptAnswer = {
  track: "beginner",
  moduleId: "m-1",
  submission: { kind: "replay", attempt: 2, direction: "buy", stop: "1.08300", target: "1.08900", riskPercent: "1" },
};
const key = keptAnswerKey("user-1", "m-1");
const networkFailure = () => new ApiRequestError(NETWORK_ERROR_MESSAGE, 0, "NETWORK");

afterEach(() => {
  localStorage.clear();
});

describe("keeping an answer", () => {
  it("keeps it under the learner's and the lesson's ids, and reads it back as kept", () => {
    expect(key).toBe(`${KEPT_ANSWERS_PREFIX}user-1:m-1`);
    expect(keptAnswerKey("user-2", "m-1")).not.toBe(key);
    expect(keptAnswerKey("user-1", "m-2")).not.toBe(key);

    expect(keepAnswer(localStorage, key, trade)).toBe(true);
    expect(readKeptAnswer(localStorage, key)).toEqual(trade);
    expect(readKeptAnswer(localStorage, keptAnswerKey("user-2", "m-1"))).toBeNull();
  });

  it("keeps the latest answer only", () => {
    const level: KeptAnswer = { track: "beginner", moduleId: "m-1", submission: { kind: "level", attempt: 2, price: "1.085" } };
    keepAnswer(localStorage, key, trade);
    keepAnswer(localStorage, key, level);
    expect(readKeptAnswer(localStorage, key)).toEqual(level);
  });

  it("drops what is not an answer (written by another version, or edited)", () => {
    localStorage.setItem(key, "{not json");
    expect(readKeptAnswer(localStorage, key)).toBeNull();
    expect(localStorage.getItem(key)).toBeNull();

    localStorage.setItem(key, JSON.stringify({ track: "beginner", moduleId: "m-1", submission: { kind: "replay" } }));
    expect(readKeptAnswer(localStorage, key)).toBeNull();
    expect(localStorage.getItem(key)).toBeNull();
  });

  it("says so when the browser refuses to store it", () => {
    const full = { setItem: () => { throw new DOMException("full", "QuotaExceededError"); } } as unknown as Storage;
    expect(keepAnswer(full, key, trade)).toBe(false);
  });
});

describe("sending a kept answer", () => {
  it("sends nothing when nothing is kept", async () => {
    const send = vi.fn(async () => "scored");
    expect(await sendKeptAnswer(localStorage, key, send)).toEqual({ status: "none" });
    expect(send).not.toHaveBeenCalled();
  });

  it("sends the kept answer and forgets it once the server has answered", async () => {
    keepAnswer(localStorage, key, trade);
    const send = vi.fn(async (answer: KeptAnswer) => ({ ok: true, attempt: answer.submission.attempt }));
    expect(await sendKeptAnswer(localStorage, key, send)).toEqual({ status: "answered", answer: { ok: true, attempt: 2 } });
    expect(send).toHaveBeenCalledWith(trade);
    expect(readKeptAnswer(localStorage, key)).toBeNull();
  });

  it("keeps it while there is still no network, and sends it on the next try", async () => {
    keepAnswer(localStorage, key, trade);
    const failing = vi.fn(async () => {
      throw networkFailure();
    });
    expect(await sendKeptAnswer(localStorage, key, failing)).toEqual({ status: "offline" });
    expect(readKeptAnswer(localStorage, key)).toEqual(trade);

    const send = vi.fn(async () => "scored");
    expect(await sendKeptAnswer(localStorage, key, send)).toEqual({ status: "answered", answer: "scored" });
    expect(readKeptAnswer(localStorage, key)).toBeNull();
  });

  it("forgets it when the server refuses it (an attempt that ended): sending it again would not help", async () => {
    keepAnswer(localStorage, key, trade);
    const stale = new ApiRequestError("That attempt is over: your answer was not scored. Open the exercise again.", 409, "STALE_ATTEMPT");
    const outcome = await sendKeptAnswer(localStorage, key, async () => {
      throw stale;
    });
    expect(outcome).toEqual({ status: "refused", error: stale });
    expect(readKeptAnswer(localStorage, key)).toBeNull();
  });

  it("sends it once when asked twice at the same time (the online event and the page opening)", async () => {
    keepAnswer(localStorage, key, trade);
    let answer: (value: string) => void = () => undefined;
    const send = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const first = sendKeptAnswer(localStorage, key, send);
    const second = sendKeptAnswer(localStorage, key, send);
    answer("scored");
    expect(await first).toEqual({ status: "answered", answer: "scored" });
    expect(await second).toEqual({ status: "answered", answer: "scored" });
    expect(send).toHaveBeenCalledTimes(1);

    expect(await sendKeptAnswer(localStorage, key, send)).toEqual({ status: "none" });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("sends one learner's answer only under their own key", async () => {
    keepAnswer(localStorage, key, trade);
    const send = vi.fn(async () => "scored");
    expect(await sendKeptAnswer(localStorage, keptAnswerKey("user-2", "m-1"), send)).toEqual({ status: "none" });
    expect(send).not.toHaveBeenCalled();
    expect(readKeptAnswer(localStorage, key)).toEqual(trade);
  });
});
