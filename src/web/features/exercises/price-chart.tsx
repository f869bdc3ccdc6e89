// A candlestick chart of an exercise's bars, drawn by TradingView's lightweight-charts (Apache-2.0,
// docs/trading.md "Exercises"). This module is the only one that imports the library, and it is
// loaded only by the exercise player and the administrator's exercise editor (React.lazy), so the
// library costs nothing to the pages that have no chart. Touch works as the library's own: drag to
// pan, pinch to zoom, tap to choose a price (no control is hover-only). The chart is a picture for
// screen readers, named by its summary; every choice it offers is also a field or a button.
import {
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef } from "react";
import type { ChartBar } from "../../../shared/contracts/exercises.ts";
import "./price-chart.css";

export type ChartLine = { price: number; title: string; tone: "entry" | "stop" | "target" | "answer" | "mark" };
export type ChartMarker = { time: number; text: string; tone: "entry" | "exit" | "decision" };

type PriceChartProps = {
  bars: readonly ChartBar[];
  lines?: readonly ChartLine[];
  markers?: readonly ChartMarker[];
  /** Digits after the point the prices are written with. */
  precision: number;
  /** What the chart shows, for screen readers. */
  label: string;
  /** A tap (or click) on the chart: the price under it. */
  onPick?: (price: number) => void;
  height?: number;
};

const TONES: Record<ChartLine["tone"] | ChartMarker["tone"], string> = {
  entry: "#1d4ed8",
  stop: "#b91c1c",
  target: "#047857",
  answer: "#7c3aed",
  mark: "#b45309",
  exit: "#111827",
  decision: "#6b7280",
};

export default function PriceChart({ bars, lines = [], markers = [], precision, label, onPick, height = 320 }: PriceChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; series: ISeriesApi<"Candlestick">; markers: ISeriesMarkersPluginApi<Time> } | null>(null);
  const drawnLines = useRef<IPriceLine[]>([]);
  const pick = useRef(onPick);
  const shownCount = useRef(0);
  const shownLast = useRef<number | undefined>(undefined);

  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const api = createChart(element, {
      autoSize: true,
      // The library's credit is a link drawn inside the chart, which a picture must not hold: it is
      // given under the chart instead.
      layout: { background: { type: ColorType.Solid, color: "#ffffff" }, textColor: "#1f2937", attributionLogo: false },
      grid: { vertLines: { color: "#eef0f3" }, horzLines: { color: "#eef0f3" } },
      timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 4 },
      // Drag to pan, pinch to zoom; a vertical swipe still scrolls the page on a phone.
      handleScroll: { vertTouchDrag: false },
    });
    const series = api.addSeries(CandlestickSeries, {
      upColor: "#047857",
      downColor: "#b91c1c",
      borderVisible: false,
      wickUpColor: "#047857",
      wickDownColor: "#b91c1c",
    });
    const seriesMarkers = createSeriesMarkers(series, []);
    const onClick = (event: MouseEventParams) => {
      if (!event.point || !pick.current) return;
      const price = series.coordinateToPrice(event.point.y);
      if (price !== null) pick.current(price);
    };
    api.subscribeClick(onClick);
    chart.current = { api, series, markers: seriesMarkers };
    return () => {
      api.unsubscribeClick(onClick);
      api.remove();
      chart.current = null;
      drawnLines.current = [];
      shownCount.current = 0;
    };
  }, []);

  useEffect(() => {
    const drawn = chart.current;
    if (!drawn) return;
    drawn.series.applyOptions({ priceFormat: { type: "price", precision, minMove: 1 / 10 ** precision } });
    drawn.series.setData(bars.map((bar) => ({ time: bar.t as UTCTimestamp, open: bar.o, high: bar.h, low: bar.l, close: bar.c })));
    // Every bar sent is in sight as bars are added (a step, a replay's outcome): the whole story
    // the learner decides on, a pinch away from any detail.
    if (bars.length !== shownCount.current || bars.at(-1)?.t !== shownLast.current) drawn.api.timeScale().fitContent();
    shownLast.current = bars.at(-1)?.t;
    shownCount.current = bars.length;
  }, [bars, precision]);

  useEffect(() => {
    const drawn = chart.current;
    if (!drawn) return;
    for (const line of drawnLines.current) drawn.series.removePriceLine(line);
    drawnLines.current = lines.map((line) =>
      drawn.series.createPriceLine({
        price: line.price,
        color: TONES[line.tone],
        lineWidth: 2,
        lineStyle: line.tone === "entry" ? LineStyle.Solid : LineStyle.Dashed,
        axisLabelVisible: true,
        title: line.title,
      }),
    );
    const shown: SeriesMarker<Time>[] = markers.map((marker) => ({
      time: marker.time as UTCTimestamp,
      position: marker.tone === "exit" ? "aboveBar" : "belowBar",
      color: TONES[marker.tone],
      shape: marker.tone === "decision" ? "arrowUp" : "circle",
      text: marker.text,
    }));
    drawn.markers.setMarkers(shown);
  }, [lines, markers]);

  return (
    <div className="price-chart-frame">
      <div ref={container} className="price-chart" role="img" aria-label={label} style={{ height }} />
      <p className="price-chart-credit">
        <a href="https://www.tradingview.com/" rel="noopener noreferrer" target="_blank">
          Chart by TradingView<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
    </div>
  );
}
