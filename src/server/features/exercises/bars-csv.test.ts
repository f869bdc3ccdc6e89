import { describe, expect, it } from "vitest";
import { MAX_BARS, parseBars } from "./bars-csv.ts";

const MT5_HEADER = "<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>";
const mt5 = (...rows: string[]) => [MT5_HEADER, ...rows].join("\r\n");
const mt5Row = (date: string, time: string, o: string, h: string, l: string, c: string) => [date, time, o, h, l, c, "1520", "0", "12"].join("\t");
const tradingView = (...rows: string[]) => ["time,open,high,low,close,Volume", ...rows].join("\n");

describe("MetaTrader 5's Export bars", () => {
  it("reads each bar's time (as written, in UTC) and prices as the file wrote them", () => {
    const parsed = parseBars(
      "\uFEFF" + mt5(mt5Row("2024.03.01", "13:00:00", "1.08050", "1.08120", "1.08010", "1.08100"), mt5Row("2024.03.01", "14:00:00", "1.08100", "1.08150", "1.08000", "1.08020")),
    );
    expect(parsed).toEqual({
      ok: true,
      format: "metatrader5",
      bars: [
        { time: new Date("2024-03-01T13:00:00Z"), open: "1.08050", high: "1.08120", low: "1.08010", close: "1.08100" },
        { time: new Date("2024-03-01T14:00:00Z"), open: "1.08100", high: "1.08150", low: "1.08000", close: "1.08020" },
      ],
    });
  });

  it("reads a daily export, which has no <TIME> column, at midnight", () => {
    const parsed = parseBars(["<DATE>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>", "2024.03.01\t2040.10\t2055.00\t2035.50\t2052.30\t9000"].join("\n"));
    expect(parsed).toMatchObject({ ok: true, bars: [{ time: new Date("2024-03-01T00:00:00Z"), close: "2052.30" }] });
  });

  it("refuses a file MetaTrader's header names but commas separate", () => {
    expect(parseBars(MT5_HEADER.replaceAll("\t", ",") + "\n2024.03.01,13:00:00,1,1,1,1,0,0,0")).toEqual({
      ok: false,
      message: "Line 1: a MetaTrader 5 file is separated by tabs; this one is not. Export it again with MetaTrader's Export bars.",
    });
  });
});

describe("TradingView's chart export", () => {
  it("reads Unix seconds and ISO 8601 times", () => {
    const parsed = parseBars(tradingView("1709298000,150.10,150.35,150.02,150.30,1200", "2024-03-01T14:00:00Z,150.30,150.40,150.20,150.25,900"));
    expect(parsed).toMatchObject({
      ok: true,
      format: "tradingview",
      bars: [{ time: new Date("2024-03-01T13:00:00Z"), open: "150.10" }, { time: new Date("2024-03-01T14:00:00Z"), close: "150.25" }],
    });
  });

  it("takes a file without volume", () => {
    expect(parseBars("time,open,high,low,close\n1709298000,1,2,0.5,1.5")).toMatchObject({ ok: true, bars: [{ high: "2" }] });
  });
});

describe("a file refused by its first bad line", () => {
  it.each([
    ["an empty file", "", "The file is empty."],
    ["a header alone", "time,open,high,low,close\n", "The file has a header but no bars."],
    ["an unknown header", "date;open;high\n1;2;3", "Line 1: the header is neither MetaTrader 5's (<DATE>, <TIME>, <OPEN>, <HIGH>, <LOW>, <CLOSE> separated by tabs) nor TradingView's (time,open,high,low,close)."],
    ["semicolons", "time;open;high;low;close\n1;2;3;1;2", "Line 1: a TradingView file is separated by commas; this one is not."],
    ["a stray quote", 'time,open,high,low,close\n1709298000,1,2,0.5,1.5\n1709301600,"1,2,0.5,1.5\n', "Line 3: the file cannot be read as CSV (a stray quote?)."],
    ["a missing column", "time,open,high,close\n1709298000,1,2,1.5", "Line 1: the column low is missing."],
    ["a number that is not one", tradingView("1709298000,1,2,0.5,1.5,1", "1709301600,1.5,two,1,1.8,1"), 'Line 3: the high "two" is not a price.'],
    ["a negative price", tradingView("1709298000,-1,2,0.5,1.5,1"), 'Line 2: the open "-1" is not a price.'],
    ["a missing close", tradingView("1709298000,1,2,0.5"), "Line 2: the close is missing."],
    ["a high below the close", tradingView("1709298000,1.0,1.4,0.9,1.5,1"), "Line 2: the high 1.4 is below the open or the close."],
    ["a low above the open", tradingView("1709298000,1.0,1.6,1.1,1.5,1"), "Line 2: the low 1.1 is above the open or the close."],
    ["a repeated time", tradingView("1709298000,1,2,0.5,1.5,1", "1709298000,1,2,0.5,1.5,1"), "Line 3: the time repeats the line before's."],
    ["times out of order", tradingView("1709301600,1,2,0.5,1.5,1", "1709298000,1,2,0.5,1.5,1"), "Line 3: the time is earlier than the line before's: bars must be in time order."],
    ["a date that does not exist", mt5(mt5Row("2024.02.30", "13:00:00", "1", "2", "0.5", "1.5")), 'Line 2: the date and time "2024.02.30 13:00:00" do not exist.'],
    ["a date written another way", mt5(mt5Row("01/03/2024", "13:00:00", "1", "2", "0.5", "1.5")), 'Line 2: the date "01/03/2024" is not written as MetaTrader writes it (2024.03.01).'],
    ["a time without its zone", tradingView("2024-03-01T13:00:00,1,2,0.5,1.5,1"), 'Line 2: the time "2024-03-01T13:00:00" is neither Unix seconds nor an ISO 8601 time with its zone.'],
  ])("%s", (_case, text, message) => {
    expect(parseBars(text)).toEqual({ ok: false, message });
  });

  it("counts lines as the file has them, blank lines included", () => {
    expect(parseBars("time,open,high,low,close\n\n1709298000,1,2,0.5,1.5\n\n1709298000,1,2,0.5,1.5")).toEqual({
      ok: false,
      message: "Line 5: the time repeats the line before's.",
    });
  });

  it(`takes ${MAX_BARS} bars and refuses one more, naming the line it starts at`, () => {
    const rows = (count: number) => Array.from({ length: count }, (_, i) => `${1709298000 + i * 60},1,2,0.5,1.5`);
    expect(parseBars(["time,open,high,low,close", ...rows(MAX_BARS)].join("\n"))).toMatchObject({ ok: true });
    expect(parseBars(["time,open,high,low,close", ...rows(MAX_BARS + 1)].join("\n"))).toEqual({
      ok: false,
      message: "Line 20002: the file has more than 20,000 bars; upload at most 20,000.",
    });
  });
});
