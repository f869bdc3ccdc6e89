// Writes of one kind made together (docs/performance.md, "Quiz answers in batches"): under load,
// one statement and one commit serve many writes; a quiet server writes each alone, at once.
import DataLoader from "dataloader";

/** Writes `items`, answering for each, in order, its result or the error that is its alone. */
export type WriteBatch<K, V> = (items: readonly K[]) => Promise<(V | Error)[]>;

export type BatcherOptions = {
  /** Items per batch at most. */
  maxBatch: number;
  /** Batches running at once at most. */
  slots: number;
  /**
   * When a batch goes out. `running`: at once while a slot is free, so that under load what
   * arrives while the slots are taken gathers behind them (a database in another process, which
   * the event loop goes on serving while a statement runs). `turn`: at the end of this turn of the
   * event loop, so that the requests read in it gather (an embedded database, which runs a
   * statement within the call: nothing could arrive while it runs).
   */
  gather: "running" | "turn";
};

/**
 * `write` for one item, batched with the others. When a batch fails as a whole (its transaction
 * rolled back), each of its items is written again alone, so that a failure fails only the item
 * that caused it.
 */
export function createBatcher<K, V>(write: WriteBatch<K, V>, { maxBatch, slots, gather }: BatcherOptions): (item: K) => Promise<V> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const dispatchInSlot = (dispatch: () => void) => {
    if (running < slots) dispatch();
    else waiting.push(dispatch);
  };
  // `running` as DataLoader's own schedule: once the promise jobs queued now have run, so that
  // what they ask joins the batch.
  const schedule =
    gather === "turn"
      ? (dispatch: () => void) => setImmediate(() => dispatchInSlot(dispatch))
      : (dispatch: () => void) => void Promise.resolve().then(() => process.nextTick(() => dispatchInSlot(dispatch)));
  const writeAlone = (item: K): Promise<V | Error> =>
    write([item]).then(([result]) => result ?? new Error("a batch write answered nothing"), toError);
  const loader = new DataLoader<K, V>(
    async (items) => {
      running += 1;
      try {
        return await write(items);
      } catch (error) {
        if (items.length === 1) throw error;
        return await Promise.all(items.map(writeAlone));
      } finally {
        running -= 1;
        waiting.shift()?.();
      }
    },
    { cache: false, maxBatchSize: maxBatch, batchScheduleFn: schedule },
  );
  return (item) => loader.load(item);
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
