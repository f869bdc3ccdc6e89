// wrapPglite gives the client Drizzle's text parsers once instead of with every query: the rows
// Drizzle reads must be the same as with PGlite's own handling, in and out of a transaction.
import { types, type PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { date, integer, interval, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPglite, wrapPglite, type Database } from "./client.ts";

const samples = pgTable("samples", {
  id: integer("id").primaryKey(),
  label: text("label").notNull(),
  at: timestamp("at", { withTimezone: true }).notNull(),
  local: timestamp("local").notNull(),
  day: date("day").notNull(),
  span: interval("span").notNull(),
  amount: numeric("amount").notNull(),
  data: jsonb("data").notNull(),
});

const CREATE = sql`create table samples (id integer primary key, label text not null, at timestamptz not null,
  local timestamp not null, day date not null, span interval not null, amount numeric not null, data jsonb not null)`;

const ROW = {
  id: 1,
  label: "Ama",
  at: new Date("2025-03-04T05:06:07.890Z"),
  local: new Date("2025-03-04T05:06:07.000Z"),
  day: "2025-03-04",
  span: "1 day 02:03:04",
  amount: "12.50",
  data: { beginner: { m1: true }, list: [1, 2] },
};

describe("wrapPglite's parsers", () => {
  let plainClient: PGlite;
  let wrapped: Database;

  beforeAll(async () => {
    plainClient = createPglite({});
    const wrappedClient = createPglite({});
    await Promise.all([plainClient.waitReady, wrappedClient.waitReady]);
    wrapped = wrapPglite(wrappedClient, () => {});
    for (const db of [drizzle({ client: plainClient }), wrapped.db]) {
      await db.execute(CREATE);
      await db.insert(samples).values(ROW);
    }
  }, 60_000);
  afterAll(async () => {
    await plainClient?.close();
    await wrapped?.close();
  });

  it("read the same rows as Drizzle on a plain client, in and out of a transaction", async () => {
    const plain = drizzle({ client: plainClient });
    const expected = await plain.select().from(samples);
    expect(expected).toEqual([ROW]);
    expect(await wrapped.db.select().from(samples)).toEqual(expected);
    expect(await wrapped.db.transaction((tx) => tx.select().from(samples).where(eq(samples.id, 1)))).toEqual(expected);
  });

  it("leave a query with parsers of its own to them", async () => {
    // What Drizzle queries through (drizzle() keeps it as $client; the app's Db type leaves it out).
    const client = (wrapped.db as unknown as { $client: PGlite }).$client;
    const upper = { [types.TEXT]: (value: string) => value.toUpperCase() };
    const result = await client.query<{ label: string }>("select label from samples", [], { parsers: upper });
    expect(result.rows).toEqual([{ label: "AMA" }]);
  });
});
