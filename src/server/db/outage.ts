// The database gone (docs/operations.md, "Database outage"): requests that need it are answered
// 503 with Retry-After, the outage is logged once when it starts and once when it ends, and a
// probe notices the database back without waiting for a request.

/** The operating system's words for a connection that could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** PostgreSQL ending the session: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SERVER_GONE_STATES = new Set(["57P01", "57P02", "57P03"]);

/**
 * PostgreSQL refuses a connection, or ends one, with a FATAL error whatever its SQLSTATE: the
 * database not accepting connections (55000), too many connections (53300), a password that no
 * longer works (28P01), a database that is gone (3D000). A statement's own failure is an ERROR,
 * and the same code in an ERROR (55000 is also `currval` before `nextval`) is not an outage.
 */
const SESSION_ENDING_SEVERITIES = new Set(["FATAL", "PANIC"]);

function severityOf(error: Error): string | null {
  return "severity" in error && typeof error.severity === "string" ? error.severity : null;
}

/**
 * node-postgres gives these failures no code: a connection closed under a query ("Connection
 * terminated unexpectedly", "... due to connection timeout") and a pool that could not connect in
 * time.
 */
const DRIVER_CONNECTION_MESSAGES = [
  /^Connection terminated( unexpectedly| due to connection timeout)?$/,
  /^timeout exceeded when trying to connect$/,
];

function ownCode(error: Error): string | null {
  return "code" in error && typeof error.code === "string" ? error.code : null;
}

/** How `error` alone says the connection failed (a code, or "connection terminated"), or null. */
function connectionFailureOf(error: Error): string | null {
  const code = ownCode(error);
  if (code !== null) {
    // SQLSTATE class 08: connection exceptions.
    const connectionCode = CONNECTION_ERROR_CODES.has(code) || SERVER_GONE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
    return connectionCode || SESSION_ENDING_SEVERITIES.has(severityOf(error) ?? "") ? code : null;
  }
  return DRIVER_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message)) ? "connection terminated" : null;
}

/**
 * The reason, in a word, when `error` (or what it wraps: Drizzle's "Failed query" holds the
 * driver's error as its cause; connecting to "localhost" fails as an AggregateError of one error
 * per address) is the database not being reached; null for any other failure.
 */
export function connectionFailure(error: unknown, depth = 0): string | null {
  if (!(error instanceof Error) || depth > 5) return null;
  const own = connectionFailureOf(error);
  if (own !== null) return own;
  const wrapped = error instanceof AggregateError ? [...(error.errors as unknown[]), error.cause] : [error.cause];
  for (const inner of wrapped) {
    const reason = connectionFailure(inner, depth + 1);
    if (reason !== null) return reason;
  }
  return null;
}

/** How long a refused caller is asked to wait, in the Retry-After header. */
export const RETRY_AFTER_SECONDS = 5;

const PROBE_INTERVAL_MS = 1_000;

type OutageLog = {
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
};

export type OutageWatch = {
  /** A request failed on `error`: true when that is the database unreachable (answer it 503), counted. */
  refuse(error: unknown): boolean;
  /** Readiness failed on `error`: true when that is the database unreachable; not counted as refused. */
  notice(error: unknown): boolean;
  /**
   * The pool lost an idle connection: the start of an outage when the database does not answer
   * now (one line for the outage, not one per connection); otherwise one line of its own.
   */
  idleConnectionLost(error: unknown): void;
  /** Stops probing (the app closes). */
  stop(): void;
};

type Outage = { startedAt: number; reason: string; refused: number };

/** Watches for the database being unreachable; `probe` asks it something small. */
export function createOutageWatch(options: { probe: () => Promise<unknown>; log: OutageLog }): OutageWatch {
  const { probe, log } = options;
  let outage: Outage | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let checkingLostConnection = false;

  function scheduleProbe() {
    if (stopped) return;
    timer = setTimeout(() => void probeOnce(), PROBE_INTERVAL_MS);
    timer.unref();
  }

  async function probeOnce() {
    timer = null;
    try {
      await probe();
    } catch {
      scheduleProbe();
      return;
    }
    end();
  }

  function begin(reason: string): Outage {
    if (outage) return outage;
    outage = { startedAt: Date.now(), reason, refused: 0 };
    log.error({ reason, retryAfterSeconds: RETRY_AFTER_SECONDS }, "database unreachable: requests that need it are answered 503");
    scheduleProbe();
    return outage;
  }

  function end() {
    if (!outage || stopped) return;
    const { startedAt, refused } = outage;
    outage = null;
    log.warn({ refusedRequests: refused, outageSeconds: Math.round((Date.now() - startedAt) / 1000) }, "database reachable again");
  }

  return {
    refuse(error) {
      const reason = connectionFailure(error);
      if (reason === null) return false;
      begin(reason).refused++;
      return true;
    },
    notice(error) {
      const reason = connectionFailure(error);
      if (reason === null) return false;
      begin(reason);
      return true;
    },
    idleConnectionLost(error) {
      if (outage || checkingLostConnection || stopped) return;
      checkingLostConnection = true;
      const lostAlone = () => log.warn({ reason: connectionFailure(error) ?? "unknown" }, "idle database connection lost");
      probe()
        .then(lostAlone, (failure: unknown) => {
          const reason = connectionFailure(failure);
          if (reason === null) lostAlone();
          else begin(reason);
        })
        .finally(() => {
          checkingLostConnection = false;
        });
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
