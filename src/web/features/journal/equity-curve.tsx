// The equity curve: the running sum of R after each closed trade, oldest first, drawn as a line
// over the zero line. A few hundred points at most (the server sends the last 500), so plain SVG
// serves: no chart library is loaded for it.
import type { JournalStats } from "../../../shared/contracts/journal.ts";

const WIDTH = 600;
const HEIGHT = 180;
const PAD = 8;

export function EquityCurve({ points }: { points: JournalStats["equity"] }) {
  if (points.length < 2) return null;
  const values = points.map((point) => Number(point.totalR));
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom || 1;
  const x = (index: number) => PAD + (index * (WIDTH - 2 * PAD)) / (points.length - 1);
  const y = (value: number) => PAD + ((top - value) * (HEIGHT - 2 * PAD)) / span;
  const line = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
  const first = points[0];
  const last = points.at(-1);
  const summary = `Equity curve of ${points.length} closed trades, from ${first?.tradedOn} to ${last?.tradedOn}: ${last?.totalR} R in all, at most ${top.toFixed(2)} R and at least ${bottom.toFixed(2)} R.`;
  return (
    <figure className="journal-curve">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <line x1={PAD} x2={WIDTH - PAD} y1={y(0)} y2={y(0)} className="journal-curve-zero" />
        <polyline points={line} className="journal-curve-line" />
      </svg>
      <figcaption className="muted">
        Your running total in R, trade by trade: {last?.totalR} R after {points.length} trades.
      </figcaption>
    </figure>
  );
}
