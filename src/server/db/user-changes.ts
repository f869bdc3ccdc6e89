// What an instance may keep in memory about a signed-in user, and how it learns that it changed
// (docs/performance.md, "Caching signed-in reads"). Triggers (migration 0009) announce the user's
// id on the user_changed channel whenever their account (users, sessions) or their learning
// (progress, quiz answers, certificates) changes, by whatever path, when the change commits. Every
// instance listens; a cache serves only while the listening connection is up, so nothing is ever
// served that a missed announcement could have made stale.
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./client.ts";
import type { ChannelListener } from "./listener.ts";

export const USER_CHANGES_CHANNEL = "user_changed";

/** Which of a user's data changed: their account and sessions, or their learning. */
export type UserScope = "account" | "learning";

/** A user whose data in `scope` changed; null for everything (the feed was down or restarted). */
export type UserChange = { scope: UserScope; userId: string } | null;

export type UserChanges = {
  /** True while every change is sure to be heard: caches serve only then. */
  readonly live: boolean;
  subscribe(listener: (change: UserChange) => void): void;
  /** A change this instance made itself, heard at once (the database's notice follows). */
  changed(change: UserChange): void;
  /**
   * A change this instance committed in a transaction that announced nothing itself (it set
   * academy.changes_announced, migration 0012): heard here at once, then announced to the other
   * instances. Never rejects: not announced (the database unreachable a moment after the commit),
   * it is logged, and the others keep what they read for at most their caches' maximum age.
   */
  announce(change: { scope: UserScope; userId: string }): Promise<void>;
  /** Starts listening, once the database is ready. A disabled feed never goes live. */
  start(): void;
  close(): Promise<void>;
};

export function parseUserChange(payload: string): UserChange {
  const colon = payload.indexOf(":");
  const scope = payload.slice(0, colon);
  const userId = payload.slice(colon + 1);
  if ((scope !== "account" && scope !== "learning") || !userId) return null;
  return { scope, userId };
}

/**
 * The feed of user changes. `enabled: false` (SIGNED_IN_CACHE=off) never goes live, so every
 * cache built on it reads through to the database.
 */
export function followUserChanges(options: { database: Database; log: FastifyBaseLogger; enabled: boolean }): UserChanges {
  const listeners: ((change: UserChange) => void)[] = [];
  let live = false;
  let connection: ChannelListener | null = null;
  const emit = (change: UserChange) => {
    for (const listener of listeners) listener(change);
  };
  return {
    get live() {
      return live;
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    changed: emit,
    async announce(change) {
      emit(change);
      try {
        await options.database.announce(USER_CHANGES_CHANNEL, `${change.scope}:${change.userId}`);
      } catch (error) {
        options.log.warn({ err: error instanceof Error ? error.message : String(error), change }, "a user change was not announced");
      }
    },
    start() {
      if (!options.enabled || connection) return;
      connection = options.database.listen(
        USER_CHANGES_CHANNEL,
        {
          onNotification: (payload) => emit(parseUserChange(payload)),
          // What was announced before the LISTEN was in place was missed: start afresh.
          onListening: () => {
            emit(null);
            live = true;
          },
          onLost: () => {
            live = false;
            emit(null);
          },
        },
        options.log,
      );
    },
    async close() {
      live = false;
      emit(null);
      await connection?.close();
      connection = null;
    },
  };
}

/** When a read began: a value read since is kept only if its user has not changed meanwhile. */
export type ReadStamp = { readonly epoch: number; readonly at: number };

type Entry<V> = { userId: string; value: V; storedAt: number };

/**
 * Values about users (a session, a learner's standing), each forgotten when its user's data in
 * `scope` changes. A value read while its user changed is not kept: take a stamp before reading and
 * pass it to `set`. Bounded: the oldest entry goes first when full; and an entry older than
 * `maxAgeMs` is read again, a safety net behind the announcements.
 */
export class PerUserCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #keysByUser = new Map<string, Set<string>>();
  /** The change counter when each recently changed user last changed. */
  readonly #lastChange = new Map<string, number>();
  #epoch = 0;
  #changes = 0;

  constructor(
    private readonly feed: UserChanges,
    private readonly options: { scope: UserScope; maxEntries: number; maxAgeMs: number },
  ) {
    feed.subscribe((change) => {
      if (change === null) this.clear();
      else if (change.scope === options.scope) this.forget(change.userId);
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  stamp(): ReadStamp {
    return { epoch: this.#epoch, at: this.#changes };
  }

  get(key: string, now = Date.now()): V | undefined {
    if (!this.feed.live) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt > this.options.maxAgeMs) {
      this.#remove(key, entry.userId);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, userId: string, value: V, stamp: ReadStamp, now = Date.now()): void {
    if (!this.feed.live || stamp.epoch !== this.#epoch) return;
    if ((this.#lastChange.get(userId) ?? 0) > stamp.at) return;
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous.userId);
    if (this.#entries.size >= this.options.maxEntries) {
      const oldest = this.#entries.entries().next().value;
      if (oldest) this.#remove(oldest[0], oldest[1].userId);
    }
    this.#entries.set(key, { userId, value, storedAt: now });
    let keys = this.#keysByUser.get(userId);
    if (!keys) this.#keysByUser.set(userId, (keys = new Set()));
    keys.add(key);
  }

  forget(userId: string): void {
    this.#changes++;
    this.#lastChange.set(userId, this.#changes);
    // The record of recent changes is bounded too: past the limit, everything starts afresh.
    if (this.#lastChange.size > this.options.maxEntries) {
      this.clear();
      return;
    }
    const keys = this.#keysByUser.get(userId);
    if (!keys) return;
    for (const key of keys) this.#entries.delete(key);
    this.#keysByUser.delete(userId);
  }

  clear(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#keysByUser.clear();
    this.#lastChange.clear();
  }

  #remove(key: string, userId: string) {
    this.#entries.delete(key);
    const keys = this.#keysByUser.get(userId);
    keys?.delete(key);
    if (keys?.size === 0) this.#keysByUser.delete(userId);
  }
}
