// The trading journal's API (docs/trading.md, "The journal"): entries kept as typed with their
// result in R, figures worked out by hand, screenshots checked by their content, and privacy:
// another learner's entry does not exist for them.
import { count, eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOURNAL_MESSAGES, type JournalEntry, type JournalEntryInput, type JournalStats, type SharedJournalEntry } from "../../../shared/contracts/journal.ts";
import { journalEntries, journalScreenshots, smsMessages, smsNumbers } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(62);

/** A 1x1 PNG. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

const BUY: JournalEntryInput = {
  kind: "practice",
  instrument: "eurusd",
  direction: "buy",
  entry: "1.08500",
  stop: "1.08300",
  target: "1.08900",
  exit: "1.08900",
  size: "0.05",
  tradedOn: "2026-11-02",
  notes: "Bought the retest of 1.0850.",
};

const refused = (status: number, message: string) => ({ status, body: { error: { code: expect.any(String), message, requestId: expect.any(String) } } });

describe("the trading journal", () => {
  let t: TestApp;
  let user: (key: "ama" | "kofi" | "admin") => TestUser;

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    user = await createTestUsers(t, nextIp, { ama: {}, kofi: {}, admin: { plan: "admin" } });
  });
  afterAll(() => t.close());

  const as = (who: "ama" | "kofi" | "admin", options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, cookie: user(who).cookie } });

  async function created(who: "ama" | "kofi", input: Partial<JournalEntryInput> = {}): Promise<JournalEntry> {
    const response = await as(who, { method: "POST", url: "/api/journal", payload: { ...BUY, ...input } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ entry: JournalEntry }>().entry;
  }

  const stored = async () => (await t.database.db.select({ n: count() }).from(journalEntries))[0]?.n;

  it("keeps an entry as typed, with its result in R worked out by the server", async () => {
    const entry = await created("ama");
    // A buy at 1.08500 with its stop at 1.08300 risks 20 pips; out at 1.08900 it made 40: 2.00 R.
    expect(entry).toMatchObject({ instrument: "EURUSD", direction: "buy", entry: "1.08500", stop: "1.08300", target: "1.08900", exit: "1.08900", size: "0.05", r: "2.00", screenshot: null });
    // A sell at 151.20, stop 151.70 (50 pips), out at 150.95 (25 pips): 0.50 R. Still open: no R.
    expect((await created("ama", { instrument: "USDJPY", direction: "sell", entry: "151.20", stop: "151.70", target: "", exit: "150.95" })).r).toBe("0.50");
    expect((await created("ama", { exit: "" })).r).toBeNull();
    // One third of the risk lost, rounded half up: a buy at 1.1000, stop 1.0970, out at 1.0990 is -0.33 R.
    expect((await created("ama", { entry: "1.1000", stop: "1.0970", target: "", exit: "1.0990" })).r).toBe("-0.33");
  });

  it("refuses what makes no sense, saying which field and why, and keeps nothing", async () => {
    const before = await stored();
    const cases: [Partial<JournalEntryInput>, string][] = [
      [{ stop: "1.08700" }, JOURNAL_MESSAGES.stopSide("buy")],
      [{ direction: "sell", target: "" }, JOURNAL_MESSAGES.stopSide("sell")],
      [{ target: "1.08400" }, JOURNAL_MESSAGES.targetSide("buy")],
      [{ stop: "1.08500" }, JOURNAL_MESSAGES.stopSide("buy")],
      [{ size: "0" }, JOURNAL_MESSAGES.size],
      [{ size: "-1" }, JOURNAL_MESSAGES.size],
      [{ entry: "abc" }, JOURNAL_MESSAGES.entry],
      [{ exit: "0" }, JOURNAL_MESSAGES.exit],
      [{ instrument: "EUR/USD" }, JOURNAL_MESSAGES.instrument],
      [{ tradedOn: "2026-02-30" }, JOURNAL_MESSAGES.tradedOn],
      [{ tradedOn: "2999-01-01" }, JOURNAL_MESSAGES.tradedOn],
      [{ notes: "x".repeat(2001) }, JOURNAL_MESSAGES.notesTooLong],
    ];
    for (const [change, message] of cases) {
      const response = await as("ama", { method: "POST", url: "/api/journal", payload: { ...BUY, ...change } });
      expect({ status: response.statusCode, body: response.json() }, message).toEqual(refused(400, message));
    }
    expect(await stored()).toBe(before);
  });

  it("is private: another learner's entry does not exist for them, to read, change, remove or look at; an administrator reads it", async () => {
    const entry = await created("ama", { notes: "Mine alone." });
    const url = `/api/journal/${entry.id}`;
    await as("ama", { method: "PUT", url: `${url}/screenshot`, headers: { "content-type": "application/octet-stream" }, payload: PNG });
    for (const options of [
      { method: "GET", url },
      { method: "PUT", url, payload: BUY },
      { method: "DELETE", url },
      { method: "GET", url: `${url}/screenshot` },
      { method: "PUT", url: `${url}/screenshot`, headers: { "content-type": "application/octet-stream" }, payload: PNG },
      { method: "DELETE", url: `${url}/screenshot` },
    ] as InjectOptions[]) {
      const response = await as("kofi", options);
      expect({ status: response.statusCode, body: response.json() }, `${options.method} ${options.url}`).toEqual(refused(404, JOURNAL_MESSAGES.notFound));
    }
    const list = await as("kofi", { method: "GET", url: "/api/journal" });
    expect(list.json<{ entries: JournalEntry[] }>().entries.map((e) => e.id)).not.toContain(entry.id);
    expect((await as("ama", { method: "GET", url })).json<{ entry: JournalEntry }>().entry.notes).toBe("Mine alone.");
    // Administrators see entries; they do not write in them.
    expect((await as("admin", { method: "GET", url })).json<{ entry: JournalEntry }>().entry.notes).toBe("Mine alone.");
    expect((await as("admin", { method: "GET", url: `${url}/screenshot` })).statusCode).toBe(200);
    expect((await as("admin", { method: "DELETE", url })).statusCode).toBe(404);
    // Signed out: asked to sign in.
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);

    // The console's learner page reads a learner's whole journal; a learner cannot, and no one has it for an unknown account.
    const journalOf = (who: "kofi" | "admin", id: string) => as(who, { method: "GET", url: `/api/admin/users/${encodeURIComponent(id)}/journal?page=1` });
    const read = await journalOf("admin", user("ama").id);
    expect(read.statusCode, read.body).toBe(200);
    const { entries, total, stats } = read.json<{ entries: JournalEntry[]; total: number; stats: JournalStats }>();
    expect(entries.map((e) => e.id)).toContain(entry.id);
    expect(total).toBe(entries.length);
    expect(stats).toEqual((await as("ama", { method: "GET", url: "/api/journal/stats" })).json());
    expect((await journalOf("kofi", user("ama").id)).statusCode).toBe(403);
    expect((await journalOf("admin", "no-such-learner")).statusCode).toBe(404);
  });

  it("keeps one screenshot an entry, an image by its content up to 2 MB, served to its owner", async () => {
    const entry = await created("ama");
    const put = (payload: Buffer) => as("ama", { method: "PUT", url: `/api/journal/${entry.id}/screenshot`, headers: { "content-type": "application/octet-stream" }, payload });
    const shots = async () => (await t.database.db.select({ n: count() }).from(journalScreenshots).where(eq(journalScreenshots.entryId, entry.id)))[0]?.n;

    const notImage = await put(Buffer.from("<svg onload=alert(1)></svg>"));
    expect({ status: notImage.statusCode, body: notImage.json() }).toEqual(refused(415, JOURNAL_MESSAGES.screenshotNotImage));
    const tooLarge = await put(Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect({ status: tooLarge.statusCode, body: tooLarge.json() }).toEqual(refused(413, JOURNAL_MESSAGES.screenshotTooLarge));
    expect(await shots()).toBe(0);

    const ok = await put(PNG);
    expect(ok.statusCode, ok.body).toBe(200);
    const { screenshot } = ok.json<{ entry: JournalEntry }>().entry;
    expect(screenshot).toMatchObject({ contentType: "image/png", sizeBytes: PNG.length, url: expect.stringMatching(new RegExp(`^/api/journal/${entry.id}/screenshot\\?v=\\d+$`)) });
    const image = await as("ama", { method: "GET", url: screenshot?.url ?? "" });
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.headers["cache-control"]).toBe("private, max-age=86400");
    expect(image.rawPayload.equals(PNG)).toBe(true);

    // A second one replaces the first; removing it leaves the entry.
    expect((await put(PNG)).statusCode).toBe(200);
    expect(await shots()).toBe(1);
    const removed = await as("ama", { method: "DELETE", url: `/api/journal/${entry.id}/screenshot` });
    expect(removed.json<{ entry: JournalEntry }>().entry.screenshot).toBeNull();
    expect(await shots()).toBe(0);
  });

  it("changes and removes an entry, its screenshot with it", async () => {
    const entry = await created("kofi", { exit: "" });
    const changed = await as("kofi", { method: "PUT", url: `/api/journal/${entry.id}`, payload: { ...BUY, exit: "1.08300" } });
    expect(changed.json<{ entry: JournalEntry }>().entry).toMatchObject({ id: entry.id, exit: "1.08300", r: "-1.00" });
    await as("kofi", { method: "PUT", url: `/api/journal/${entry.id}/screenshot`, headers: { "content-type": "application/octet-stream" }, payload: PNG });
    expect((await as("kofi", { method: "DELETE", url: `/api/journal/${entry.id}` })).json()).toEqual({ removed: true });
    expect((await as("kofi", { method: "GET", url: `/api/journal/${entry.id}` })).statusCode).toBe(404);
    expect(await t.database.db.select().from(journalScreenshots).where(eq(journalScreenshots.entryId, entry.id))).toEqual([]);
  });

  it("works out the figures of the closed trades by hand: win rate, averages, expectancy and the equity curve", async () => {
    const fresh = await createTestUsers(t, nextIp, { efua: {} });
    const efua = fresh("efua");
    const add = async (tradedOn: string, exit: string) => {
      // A buy at 1.1000 with a 20-pip stop: each 0.0020 is 1 R.
      const response = await t.app.inject({
        method: "POST",
        url: "/api/journal",
        headers: { cookie: efua.cookie },
        payload: { ...BUY, entry: "1.1000", stop: "1.0980", target: "", exit, tradedOn },
      });
      expect(response.statusCode, response.body).toBe(201);
    };
    const stats = async () => (await t.app.inject({ method: "GET", url: "/api/journal/stats", headers: { cookie: efua.cookie } })).json<JournalStats>();
    expect(await stats()).toEqual({ trades: 0, open: 0, wins: 0, winRate: null, averageR: null, averageWinR: null, averageLossR: null, expectancyR: null, equity: [] });

    await add("2026-11-03", "1.1040"); // +2.00 R
    await add("2026-11-01", "1.0980"); // -1.00 R, traded first
    await add("2026-11-04", "1.0990"); // -0.50 R
    await add("2026-11-05", "1.1030"); // +1.50 R
    await add("2026-11-06", ""); // open: not counted
    // 2 wins of 4: 50.0%. Average R (2 - 1 - 0.5 + 1.5) / 4 = 0.50. Average win (2 + 1.5) / 2 =
    // 1.75; average loss (1 + 0.5) / 2 = 0.75. Expectancy 0.5 x 1.75 - 0.5 x 0.75 = 0.50.
    expect(await stats()).toEqual({
      trades: 4,
      open: 1,
      wins: 2,
      winRate: "50.0",
      averageR: "0.50",
      averageWinR: "1.75",
      averageLossR: "0.75",
      expectancyR: "0.50",
      equity: [
        { tradedOn: "2026-11-01", totalR: "-1.00" },
        { tradedOn: "2026-11-03", totalR: "1.00" },
        { tradedOn: "2026-11-04", totalR: "0.50" },
        { tradedOn: "2026-11-05", totalR: "2.00" },
      ],
    });
  });

  it("exports every entry as CSV, oldest first, a formula in the notes shown as text", async () => {
    const fresh = await createTestUsers(t, nextIp, { yaw: {} });
    const yaw = fresh("yaw");
    for (const change of [{ tradedOn: "2026-11-10", notes: "=HYPERLINK(\"http://x\")" }, { tradedOn: "2026-11-09", exit: "", notes: "Still open, \"patient\"" }]) {
      await t.app.inject({ method: "POST", url: "/api/journal", headers: { cookie: yaw.cookie }, payload: { ...BUY, ...change } });
    }
    const csv = await t.app.inject({ method: "GET", url: "/api/journal/journal.csv", headers: { cookie: yaw.cookie } });
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="trading-journal.csv"');
    expect(csv.body).toBe(
      [
        "Date,Kind,Instrument,Direction,Entry,Stop-loss,Take-profit,Exit,Size (lots),Result (R),Notes",
        '2026-11-09,practice,EURUSD,buy,1.08500,1.08300,1.08900,,0.05,,"Still open, ""patient"""',
        "2026-11-10,practice,EURUSD,buy,1.08500,1.08300,1.08900,1.08900,0.05,2.00,\"'=HYPERLINK(\"\"http://x\"\")\"",
        "",
      ].join("\r\n"),
    );
  });

  describe("shared with the mentor", () => {
    it("is for an Advanced plan: another learner is told so, nothing is shared, and stopping is always open", async () => {
      const entry = await created("ama");
      const refusedShare = await as("ama", { method: "PUT", url: `/api/journal/${entry.id}/share`, payload: { shared: true } });
      expect({ status: refusedShare.statusCode, body: refusedShare.json() }).toEqual(refused(403, JOURNAL_MESSAGES.shareAdvancedOnly));
      const unshare = await as("ama", { method: "PUT", url: `/api/journal/${entry.id}/share`, payload: { shared: false } });
      expect(unshare.json<{ entry: JournalEntry }>().entry.sharedAt).toBeNull();
      // Another learner's entry is not theirs to share.
      expect((await as("kofi", { method: "PUT", url: `/api/journal/${entry.id}/share`, payload: { shared: false } })).statusCode).toBe(404);
    });

    it("an Advanced learner shares a trade; the mentor reads it and comments; the learner is told by email and SMS and reads the comment", async () => {
      const users = await createTestUsers(t, nextIp, { abena: { plan: "advanced" } });
      const abena = users("abena");
      await t.database.db.insert(smsNumbers).values({ userId: abena.id, phone: "+233241234567", confirmedAt: new Date() });
      const asAbena = (options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, cookie: abena.cookie } });
      const entry = (await asAbena({ method: "POST", url: "/api/journal", payload: BUY })).json<{ entry: JournalEntry }>().entry;
      const url = `/api/journal/${entry.id}`;

      // Not shared: the mentor's list does not hold it, and it takes no comment.
      const listed = async () => (await as("admin", { method: "GET", url: "/api/admin/journal/shared" })).json<{ entries: SharedJournalEntry[]; total: number }>();
      expect((await listed()).entries.map((shared) => shared.entry.id)).not.toContain(entry.id);
      const early = await as("admin", { method: "POST", url: `/api/admin/journal/${entry.id}/comments`, payload: { body: "Nice." } });
      expect({ status: early.statusCode, body: early.json() }).toEqual(refused(404, JOURNAL_MESSAGES.notFound));

      const shared = await asAbena({ method: "PUT", url: `${url}/share`, payload: { shared: true } });
      expect(shared.json<{ entry: JournalEntry }>().entry.sharedAt).toEqual(expect.any(String));
      const [first] = (await listed()).entries;
      expect(first).toMatchObject({ entry: { id: entry.id, r: "2.00" }, learner: { id: abena.id, email: abena.email } });

      const empty = await as("admin", { method: "POST", url: `/api/admin/journal/${entry.id}/comments`, payload: { body: "   " } });
      expect({ status: empty.statusCode, body: empty.json() }).toEqual(refused(400, JOURNAL_MESSAGES.commentRequired));
      const comment = "Good patience on the retest. Next time, move the stop to break-even once it is 1 R in profit.";
      const commented = await as("admin", { method: "POST", url: `/api/admin/journal/${entry.id}/comments`, payload: { body: comment } });
      expect(commented.statusCode, commented.body).toBe(201);

      await t.services.jobs.runDue();
      const [mail] = (await mailsTo(t, abena.email)).filter((sent) => sent.subject === "Your mentor commented on your EURUSD trade");
      expect(mail?.text).toContain(comment);
      expect(mail?.text).toContain("/journal");
      const texts = await t.database.db.select().from(smsMessages).where(eq(smsMessages.userId, abena.id));
      expect(texts.map((text) => [text.kind, text.content])).toEqual([
        ["mentorship", "Trading Academy: your mentor commented on your EURUSD trade. Read it in your journal: localhost:3000/journal"],
      ]);
      expect((await asAbena({ method: "GET", url })).json<{ entry: JournalEntry }>().entry.comments.map((c) => c.body)).toEqual([comment]);

      // Stopped sharing: out of the mentor's list, and no more comments.
      await asAbena({ method: "PUT", url: `${url}/share`, payload: { shared: false } });
      expect((await listed()).entries.map((row) => row.entry.id)).not.toContain(entry.id);
      expect((await as("admin", { method: "POST", url: `/api/admin/journal/${entry.id}/comments`, payload: { body: "More." } })).statusCode).toBe(404);
    });
  });
});
