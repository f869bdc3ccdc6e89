// Price bars from the two files traders already export (docs/trading.md, "Price data"):
// MetaTrader 5's "Export bars" (tab-separated, `<DATE> <TIME> <OPEN> <HIGH> <LOW> <CLOSE> ...`)
// and TradingView's chart export (`time,open,high,low,close[,Volume]`). A file is taken whole or
// refused whole, and a refusal names the first bad line by its number in the file.
import { CsvError, parse } from "csv-parse/sync";

export const MAX_BARS = 20_000;

/** One bar: its opening time, and its prices as the file wrote them (decimal strings). */
export type Bar = { time: Date; open: string; high: string; low: string; close: string };

export type BarsFormat = "metatrader5" | "tradingview";
export type ParsedBars = { ok: true; format: BarsFormat; bars: Bar[] } | { ok: false; message: string };

const MT5_COLUMNS = ["<DATE>", "<TIME>", "<OPEN>", "<HIGH>", "<LOW>", "<CLOSE>"] as const;
const TRADINGVIEW_COLUMNS = ["time", "open", "high", "low", "close"] as const;
const PRICE = /^\d+(\.\d+)?$/;
const MT5_DATE = /^(\d{4})\.(\d{2})\.(\d{2})$/;
const MT5_TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

const refuse = (message: string): ParsedBars => ({ ok: false, message });
const atLine = (line: number, message: string): ParsedBars => refuse(`Line ${line}: ${message}`);

export function parseBars(text: string): ParsedBars {
  const content = text.replace(/^\uFEFF/, "");
  const firstLine = content.split(/\r?\n/, 1)[0]?.trim() ?? "";
  if (firstLine === "") return refuse("The file is empty.");
  const format = formatOf(firstLine);
  if (typeof format !== "string") return format;
  const delimiter = format === "metatrader5" ? "\t" : ",";

  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with where it was read; the library's types do not say so.
    rows = parse(content, { delimiter, info: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as unknown as typeof rows;
  } catch (error) {
    if (error instanceof CsvError) return atLine(typeof error.lines === "number" ? error.lines : 1, "the file cannot be read as CSV (a stray quote?).");
    throw error;
  }
  const [header, ...data] = rows;
  if (!header) return refuse("The file is empty.");
  const wanted = format === "metatrader5" ? MT5_COLUMNS : TRADINGVIEW_COLUMNS;
  const names = header.record.map((name) => (format === "metatrader5" ? name.toUpperCase() : name.toLowerCase()));
  const column: Record<string, number> = {};
  for (const name of wanted) {
    const index = names.indexOf(name);
    // A daily MetaTrader 5 export has no <TIME>: each bar opens at midnight.
    if (index === -1 && name !== "<TIME>") return atLine(1, `the column ${name} is missing.`);
    column[name] = index;
  }
  if (data.length === 0) return refuse("The file has a header but no bars.");
  if (data.length > MAX_BARS) return atLine(data[MAX_BARS]?.info.lines ?? 1, `the file has more than ${groupedMax()} bars; upload at most ${groupedMax()}.`);

  const bars: Bar[] = [];
  for (const { record, info } of data) {
    const line = info.lines;
    const cell = (name: string) => record[column[name] ?? -1] ?? "";
    const time = format === "metatrader5" ? mt5Time(cell("<DATE>"), column["<TIME>"] === -1 ? "00:00" : cell("<TIME>")) : tradingViewTime(cell("time"));
    if (typeof time === "string") return atLine(line, time);
    const [open, high, low, close] = (format === "metatrader5" ? MT5_COLUMNS.slice(2) : TRADINGVIEW_COLUMNS.slice(1)).map(cell) as [string, string, string, string];
    for (const [name, value] of [["open", open], ["high", high], ["low", low], ["close", close]] as const) {
      if (value === "") return atLine(line, `the ${name} is missing.`);
      if (!PRICE.test(value)) return atLine(line, `the ${name} "${value}" is not a price.`);
    }
    const [o, h, l, c] = [open, high, low, close].map(Number) as [number, number, number, number];
    if (h < Math.max(o, c)) return atLine(line, `the high ${high} is below the open or the close.`);
    if (l > Math.min(o, c)) return atLine(line, `the low ${low} is above the open or the close.`);
    const previous = bars.at(-1);
    if (previous && time.getTime() === previous.time.getTime()) return atLine(line, "the time repeats the line before's.");
    if (previous && time < previous.time) return atLine(line, "the time is earlier than the line before's: bars must be in time order.");
    bars.push({ time, open, high, low, close });
  }
  return { ok: true, format, bars };
}

function groupedMax(): string {
  return MAX_BARS.toLocaleString("en-US");
}

/** The format the header line names, or why it names none. */
function formatOf(header: string): BarsFormat | ParsedBars {
  if (header.toUpperCase().startsWith("<DATE>")) {
    if (!header.includes("\t")) return atLine(1, "a MetaTrader 5 file is separated by tabs; this one is not. Export it again with MetaTrader's Export bars.");
    return "metatrader5";
  }
  const lower = header.toLowerCase();
  if (/^time[,;\t]/.test(lower)) {
    if (!lower.startsWith("time,")) return atLine(1, "a TradingView file is separated by commas; this one is not.");
    return "tradingview";
  }
  return atLine(1, "the header is neither MetaTrader 5's (<DATE>, <TIME>, <OPEN>, <HIGH>, <LOW>, <CLOSE> separated by tabs) nor TradingView's (time,open,high,low,close).");
}

function mt5Time(date: string, time: string): Date | string {
  const day = MT5_DATE.exec(date);
  if (!day) return `the date "${date}" is not written as MetaTrader writes it (2024.03.01).`;
  const clock = MT5_TIME.exec(time);
  if (!clock) return `the time "${time}" is not written as MetaTrader writes it (13:00:00).`;
  const [, year, month, dayOfMonth] = day.map(Number) as [number, number, number, number];
  const [, hours, minutes, seconds = 0] = clock.map((part) => Number(part ?? 0)) as [number, number, number, number];
  const at = new Date(Date.UTC(year, month - 1, dayOfMonth, hours, minutes, seconds));
  // Date.UTC rolls 2024.02.30 over into March: a date that does not exist comes back changed.
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== dayOfMonth || hours > 23 || minutes > 59 || seconds > 59) {
    return `the date and time "${date} ${time}" do not exist.`;
  }
  return at;
}

function tradingViewTime(text: string): Date | string {
  if (/^\d{1,11}$/.test(text)) return new Date(Number(text) * 1000);
  // ISO 8601 with a date and a time zone, as TradingView writes it (2024-03-01T13:00:00Z).
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const at = new Date(text);
    if (!Number.isNaN(at.getTime())) return at;
  }
  return `the time "${text}" is neither Unix seconds nor an ISO 8601 time with its zone.`;
}
