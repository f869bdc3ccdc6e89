// The instruments the calculators know, and what a pip of each is worth (docs/trading.md,
// "Instruments"). Sizes are decimal strings: a price is never a binary fraction here.

/** A currency a pip's value can be counted in before it is turned into dollars. */
type QuoteCurrency = "USD" | "JPY" | "CHF" | "CAD";

export type Instrument = {
  readonly symbol: string;
  readonly name: string;
  /** The price move one pip is. */
  readonly pipSize: string;
  /** Units of the base in one standard lot: 100,000 of a currency, 100 troy ounces of gold. */
  readonly contractSize: number;
  /** The currency the price is quoted in, which a pip's value is counted in. */
  readonly quote: QuoteCurrency;
  /** Whether the base is the dollar (USDJPY): a pip's value in dollars then needs the price. */
  readonly usdBase: boolean;
};

export const INSTRUMENTS = [
  { symbol: "EURUSD", name: "Euro / US dollar", pipSize: "0.0001", contractSize: 100_000, quote: "USD", usdBase: false },
  { symbol: "GBPUSD", name: "British pound / US dollar", pipSize: "0.0001", contractSize: 100_000, quote: "USD", usdBase: false },
  { symbol: "AUDUSD", name: "Australian dollar / US dollar", pipSize: "0.0001", contractSize: 100_000, quote: "USD", usdBase: false },
  { symbol: "NZDUSD", name: "New Zealand dollar / US dollar", pipSize: "0.0001", contractSize: 100_000, quote: "USD", usdBase: false },
  { symbol: "USDJPY", name: "US dollar / Japanese yen", pipSize: "0.01", contractSize: 100_000, quote: "JPY", usdBase: true },
  { symbol: "USDCHF", name: "US dollar / Swiss franc", pipSize: "0.0001", contractSize: 100_000, quote: "CHF", usdBase: true },
  { symbol: "USDCAD", name: "US dollar / Canadian dollar", pipSize: "0.0001", contractSize: 100_000, quote: "CAD", usdBase: true },
  // Gold: one lot is 100 troy ounces, and a pip is 10 cents of the ounce's price (docs/trading.md).
  { symbol: "XAUUSD", name: "Gold / US dollar", pipSize: "0.1", contractSize: 100, quote: "USD", usdBase: false },
] as const satisfies readonly Instrument[];

export type InstrumentSymbol = (typeof INSTRUMENTS)[number]["symbol"];

export const INSTRUMENT_SYMBOLS = INSTRUMENTS.map((instrument) => instrument.symbol) as [InstrumentSymbol, ...InstrumentSymbol[]];

export function instrumentOf(symbol: InstrumentSymbol): Instrument {
  const instrument = INSTRUMENTS.find((candidate) => candidate.symbol === symbol);
  if (!instrument) throw new Error(`unknown instrument ${symbol}`);
  return instrument;
}

/** The currencies a practice balance may be in. */
export const BALANCE_CURRENCIES = ["USD", "GHS"] as const;
export type BalanceCurrency = (typeof BALANCE_CURRENCIES)[number];
