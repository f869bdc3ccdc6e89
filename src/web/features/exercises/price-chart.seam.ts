// Exercises' chart seam: the candlestick chart, imported on demand (React.lazy) by the
// administrator's exercise editor (admin), which previews an exercise as the learner will see it
// (docs/trading.md, "Exercises").
export { default } from "./price-chart.tsx";
