// Which failures are the database unreachable (docs/operations.md, "Database outage"): known by
// their codes, and by node-postgres's own words only where it gives no code.
import { describe, expect, it, vi } from "vitest";
import { connectionFailure, createOutageWatch } from "./outage.ts";

const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });
/** As node-postgres gives PostgreSQL's own error: its SQLSTATE and its severity. */
const fromServer = (code: string, severity: "ERROR" | "FATAL", message: string) => Object.assign(new Error(message), { code, severity });
/** As Drizzle throws a failed query: the driver's error as the cause, the SQL and its parameters in the message. */
const failedQuery = (cause: unknown) => new Error("Failed query: select 1 where id = $1\nparams: secret", { cause });

describe("connectionFailure", () => {
  it.each([
    ["a refused connection", failedQuery(withCode("ECONNREFUSED")), "ECONNREFUSED"],
    ["a reset connection", failedQuery(withCode("ECONNRESET")), "ECONNRESET"],
    ["a connection timed out", withCode("ETIMEDOUT"), "ETIMEDOUT"],
    ["PostgreSQL shutting down", failedQuery(withCode("57P01", "terminating connection due to administrator command")), "57P01"],
    ["PostgreSQL starting", withCode("57P03", "the database system is starting up"), "57P03"],
    ["a connection exception (class 08)", withCode("08006"), "08006"],
    ["a database refusing connections", failedQuery(fromServer("55000", "FATAL", 'database "academy" is not currently accepting connections')), "55000"],
    ["too many connections", fromServer("53300", "FATAL", "sorry, too many clients already"), "53300"],
    ["a rotated password", fromServer("28P01", "FATAL", 'password authentication failed for user "academy"'), "28P01"],
    ["a database that is gone", fromServer("3D000", "FATAL", 'database "academy" does not exist'), "3D000"],
    ["localhost refusing on each of its addresses", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]), "ECONNREFUSED"],
    ["a connection closed under a query", failedQuery(new Error("Connection terminated unexpectedly")), "connection terminated"],
    ["no connection within the pool's timeout", new Error("timeout exceeded when trying to connect"), "connection terminated"],
  ])("recognises %s", (_what, error, reason) => {
    expect(connectionFailure(error)).toBe(reason);
  });

  it.each([
    ["a unique violation", failedQuery(withCode("23505", "duplicate key value violates unique constraint"))],
    ["a data exception", failedQuery(withCode("22P02", 'invalid input syntax for type integer: "x"'))],
    ["a closed embedded database", new Error("PGlite is closed")],
    ["a statement's own 55000 (currval before nextval)", failedQuery(fromServer("55000", "ERROR", 'currval of sequence "s" is not yet defined in this session'))],
    ["another message that begins the same way", new Error("Connection terminated by a cancelled request")],
    ["something not an error", "ECONNREFUSED"],
  ])("leaves %s to the usual 500", (_what, error) => {
    expect(connectionFailure(error)).toBeNull();
  });
});

describe("createOutageWatch", () => {
  it("logs an outage once however many requests it refuses, and does not take other failures for one", () => {
    const log = { error: vi.fn(), warn: vi.fn() };
    const watch = createOutageWatch({ probe: () => new Promise(() => {}), log });
    try {
      expect(watch.refuse(withCode("23505"))).toBe(false);
      expect(watch.refuse(withCode("ECONNREFUSED"))).toBe(true);
      expect(watch.notice(withCode("ECONNREFUSED"))).toBe(true);
      expect(watch.refuse(withCode("ECONNRESET"))).toBe(true);
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ reason: "ECONNREFUSED" }), expect.stringMatching(/^database unreachable/));
    } finally {
      watch.stop();
    }
  });

  it("takes an idle connection lost for an outage only when the database does not answer", async () => {
    const log = { error: vi.fn(), warn: vi.fn() };
    let answers = false;
    const watch = createOutageWatch({ probe: async () => (answers ? null : Promise.reject(withCode("ECONNREFUSED"))), log });
    try {
      answers = true;
      watch.idleConnectionLost(withCode("57P01"));
      await vi.waitFor(() => expect(log.warn).toHaveBeenCalledWith({ reason: "57P01" }, "idle database connection lost"));
      expect(log.error).not.toHaveBeenCalled();

      answers = false;
      watch.idleConnectionLost(new Error("Connection terminated unexpectedly"));
      watch.idleConnectionLost(new Error("Connection terminated unexpectedly"));
      await vi.waitFor(() => expect(log.error).toHaveBeenCalledTimes(1));
      expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ reason: "ECONNREFUSED" }), expect.stringMatching(/^database unreachable/));
      watch.idleConnectionLost(new Error("Connection terminated unexpectedly"));
      expect(log.warn).toHaveBeenCalledTimes(1);
    } finally {
      watch.stop();
    }
  });
});
