import { describe, expect, it } from "vitest";
import { createBatcher, type WriteBatch } from "./batcher.ts";

/** A batch write that records each batch it is given and answers each item doubled, on request. */
function recordingWrite(fail: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  let holding = false;
  const write: WriteBatch<number, number> = async (items) => {
    batches.push([...items]);
    if (holding) await new Promise<void>((resolve) => pending.push(resolve));
    if (items.some(fail)) throw new Error(`batch with ${items.filter(fail).join(", ")} failed`);
    return items.map((item) => item * 2);
  };
  return {
    write,
    batches,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      for (const resolve of pending.splice(0)) resolve();
    },
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createBatcher", () => {
  it("writes what is asked in one turn of the event loop as one batch, in order", async () => {
    const store = recordingWrite();
    const write = createBatcher(store.write, { maxBatch: 10, slots: 1, gather: "turn" });
    const results = await Promise.all([1, 2, 3].map(write));
    expect(results).toEqual([2, 4, 6]);
    expect(store.batches).toEqual([[1, 2, 3]]);
  });

  it("writes alone what is asked when nothing else is", async () => {
    const store = recordingWrite();
    const write = createBatcher(store.write, { maxBatch: 10, slots: 1, gather: "turn" });
    expect(await write(1)).toBe(2);
    expect(await write(2)).toBe(4);
    expect(store.batches).toEqual([[1], [2]]);
  });

  it.each(["turn", "running"] as const)("(%s) gathers what arrives while the slots are taken into the next batch", async (gather) => {
    const store = recordingWrite();
    const write = createBatcher(store.write, { maxBatch: 10, slots: 1, gather });
    store.hold();
    const first = write(1);
    await turn();
    await turn();
    const later = [write(2), write(3)];
    await turn();
    const last = write(4);
    await turn();
    await turn();
    expect(store.batches).toEqual([[1]]);
    store.release();
    expect(await Promise.all([first, ...later, last])).toEqual([2, 4, 6, 8]);
    expect(store.batches).toEqual([[1], [2, 3, 4]]);
  });

  it("(running) sends a write before the event loop's next turn when a slot is free", async () => {
    const store = recordingWrite();
    const write = createBatcher(store.write, { maxBatch: 10, slots: 1, gather: "running" });
    const written = write(1);
    // Only the jobs queued now run (a busy server's next turn can be many milliseconds away).
    for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(store.batches).toEqual([[1]]);
    expect(await written).toBe(2);
  });

  it("splits more than the maximum into batches of the maximum", async () => {
    const store = recordingWrite();
    const write = createBatcher(store.write, { maxBatch: 2, slots: 2, gather: "turn" });
    expect(await Promise.all([1, 2, 3, 4, 5].map(write))).toEqual([2, 4, 6, 8, 10]);
    expect(store.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("writes each item of a failed batch again alone: only the one that fails is refused", async () => {
    const store = recordingWrite((item) => item === 2);
    const write = createBatcher(store.write, { maxBatch: 10, slots: 1, gather: "turn" });
    const results = await Promise.allSettled([1, 2, 3].map(write));
    expect(results).toEqual([
      { status: "fulfilled", value: 2 },
      { status: "rejected", reason: new Error("batch with 2 failed") },
      { status: "fulfilled", value: 6 },
    ]);
    expect(store.batches).toEqual([[1, 2, 3], [1], [2], [3]]);
    // The slot is free again.
    expect(await write(5)).toBe(10);
  });

  it("gives each item the error the write answered for it", async () => {
    const write = createBatcher<number, number>(async (items) => items.map((item) => (item < 0 ? new Error(`${item} refused`) : item)), {
      maxBatch: 10,
      slots: 1,
      gather: "turn",
    });
    const results = await Promise.allSettled([1, -1].map(write));
    expect(results).toEqual([
      { status: "fulfilled", value: 1 },
      { status: "rejected", reason: new Error("-1 refused") },
    ]);
  });
});
