// The demo catalogue's price data: 600 hourly EURUSD bars made up, the same every time, and labelled
// illustrative wherever they show (docs/trading.md, "Price data"). Their shape is one a lesson can
// teach from: a range between support near 1.0800 and resistance near 1.0900, a breakout above it,
// a pullback to the old resistance, and a trend up from there.
//
// Prices are counted in whole points (0.00001) and written with five decimals, so no binary fraction
// reaches a price.

export const ILLUSTRATIVE_SET = {
  name: "EURUSD H1 (illustrative, not real prices)",
  instrument: "EURUSD",
  pipSize: "0.0001",
  timeframe: "H1",
} as const;

export type IllustrativeBar = { time: Date; open: string; high: string; low: string; close: string };

const BAR_COUNT = 600;
const FIRST_BAR = Date.UTC(2024, 0, 8, 0, 0, 0);
const HOUR = 3_600_000;

/** Where the price is drawn towards, by bar: the range, the breakout, the pullback, the trend. */
function targetAt(bar: number): number {
  // Swings of 40 bars between the range's edges: down to support, up to resistance, and again.
  if (bar < 260) return Math.floor(bar / 40) % 2 === 0 ? 108_040 : 108_960;
  if (bar < 330) return 108_500 + (bar - 260) * 12; // up through 1.0900 to about 1.0935
  if (bar < 380) return 109_340 - (bar - 330) * 6; // back to the old resistance, about 1.0905
  return 109_040 + (bar - 380) * 5; // the trend, to about 1.1150
}

/** mulberry32: a small, well-known generator, seeded, so the bars are the same on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function price(points: number): string {
  const text = String(points).padStart(6, "0");
  return `${text.slice(0, -5)}.${text.slice(-5)}`;
}

export function illustrativeBars(): IllustrativeBar[] {
  const random = generator(20_240_108);
  const bars: IllustrativeBar[] = [];
  let close = 108_500;
  for (let bar = 0; bar < BAR_COUNT; bar++) {
    const open = close;
    // Drawn an eighth of the way to the target each hour, with noise of up to 12 pips either way;
    // in the range, turned back at its edges.
    const pull = Math.round((targetAt(bar) - open) / 8);
    const noise = Math.round((random() - 0.5) * 240);
    close = open + pull + noise;
    if (bar < 260) close = Math.min(108_990, Math.max(108_010, close));
    const high = Math.max(open, close) + Math.round(random() * 60);
    const low = Math.min(open, close) - Math.round(random() * 60);
    bars.push({ time: new Date(FIRST_BAR + bar * HOUR), open: price(open), high: price(high), low: price(low), close: price(close) });
  }
  return bars;
}
