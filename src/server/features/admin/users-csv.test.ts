import { describe, expect, it } from "vitest";
import { USERS_CSV_COLUMNS } from "../../../shared/contracts/admin.ts";
import { HttpError } from "../../plugins/errors.ts";
import { csvDateIn, toUsersCsv, userCsvRecord, UNKNOWN_TIME_ZONE, type CsvUser } from "./users-csv.ts";

const HEADER = "Email,UID,SubscriptionPlan,Provider,Status,SubscriptionEnd,LastActive\r\n";

const complete: CsvUser = {
  id: "u1",
  email: "ama@example.com",
  plan: "advanced",
  provider: "google",
  status: "active",
  subscriptionEnd: new Date("2025-07-01T12:00:00Z"),
  lastActiveAt: new Date("2025-06-15T08:30:00Z"),
};

describe("a user as a CSV row", () => {
  const utc = csvDateIn("UTC");

  it("has the columns in order, dates as YYYY-MM-DD", () => {
    expect(USERS_CSV_COLUMNS).toHaveLength(7);
    expect(userCsvRecord(complete, utc)).toEqual(["ama@example.com", "u1", "advanced", "google", "active", "2025-07-01", "2025-06-15"]);
  });

  it("says MISSING for no plan, Unknown for no provider and N/A for no date", () => {
    const bare = { ...complete, plan: null, provider: null, subscriptionEnd: null, lastActiveAt: null, status: "inactive" as const };
    expect(userCsvRecord(bare, utc)).toEqual(["ama@example.com", "u1", "MISSING", "Unknown", "inactive", "N/A", "N/A"]);
  });
});

describe("dates in the administrator's time zone", () => {
  it("shows the calendar date of that zone", () => {
    const lateUtc = new Date("2025-03-01T11:30:00Z");
    expect(csvDateIn("UTC")(lateUtc)).toBe("2025-03-01");
    expect(csvDateIn("Pacific/Auckland")(lateUtc)).toBe("2025-03-02");
    expect(csvDateIn("America/Los_Angeles")(new Date("2025-03-01T05:00:00Z"))).toBe("2025-02-28");
    expect(csvDateIn("Asia/Kolkata")(new Date("1999-12-31T18:29:59Z"))).toBe("1999-12-31");
    expect(csvDateIn("Asia/Kolkata")(new Date("1999-12-31T18:30:00Z"))).toBe("2000-01-01");
  });

  it.each(["Mars/Olympus_Mons", "", "UTC+25", "../etc/passwd"])("refuses the zone %j with a 400", (zone) => {
    const refusal = (() => {
      try {
        csvDateIn(zone);
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ status: 400, code: "VALIDATION", message: UNKNOWN_TIME_ZONE });
  });
});

describe("writing the file", () => {
  it("starts with the header row, one CRLF-terminated line per user", () => {
    expect(toUsersCsv([])).toBe(HEADER);
    expect(toUsersCsv([["a@b.c", "u1", "legacyFree", "email", "inactive", "N/A", "N/A"]])).toBe(
      `${HEADER}a@b.c,u1,legacyFree,email,inactive,N/A,N/A\r\n`,
    );
  });

  it.each([
    ["a comma", "smith, john@example.com", '"smith, john@example.com"'],
    ["a quote", 'the "boss"@example.com', '"the ""boss""@example.com"'],
    ["a line break", "two\nlines@example.com", '"two\nlines@example.com"'],
    ["a carriage return inside", "two\r\nlines@example.com", '"two\r\nlines@example.com"'],
    ["all of them", 'a,"b"\nc', '"a,""b""\nc"'],
  ])("quotes a cell with %s", (_, cell, written) => {
    expect(toUsersCsv([[cell, "u1", "", "", "", "", ""]])).toBe(`${HEADER}${written},u1,,,,,\r\n`);
  });

  it.each([
    ["=", "=HYPERLINK(\"http://evil.test\")", '"\'=HYPERLINK(""http://evil.test"")"'],
    ["+", "+1-555@example.com", "'+1-555@example.com"],
    ["-", "-2+3@example.com", "'-2+3@example.com"],
    ["@", "@SUM(A1)@example.com", "'@SUM(A1)@example.com"],
    ["a tab", "\t=1@example.com", "'\t=1@example.com"],
    ["a carriage return", "\r=1@example.com", "\"'\r=1@example.com\""],
    ["a full-width =", "\uFF1D1+2@example.com", "'\uFF1D1+2@example.com"],
  ])("neutralises a cell starting with %s", (_, cell, written) => {
    expect(toUsersCsv([["x@example.com", cell, "", "", "", "", ""]])).toBe(`${HEADER}x@example.com,${written},,,,,\r\n`);
  });

  it("leaves those characters alone anywhere but at the start", () => {
    const cell = "a=b+c-d@example.com";
    expect(toUsersCsv([[cell, "u1", "", "", "", "", ""]])).toBe(`${HEADER}${cell},u1,,,,,\r\n`);
  });
});
