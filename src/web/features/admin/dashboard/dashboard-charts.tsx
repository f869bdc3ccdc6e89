// The dashboard's charts (docs/admin.md, "Dashboard"), drawn with recharts. This module is loaded
// only when the dashboard shows a chart (React.lazy in dashboard-tab.tsx), so the chart library
// travels in a chunk of its own, never with the learner's pages. Each chart has a table view with
// the same figures in dashboard-tab.tsx; the charts' own keyboard layer (arrow keys move the
// tooltip) is kept.
import type { ReactElement } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMonth, type Dashboard } from "../../../../shared/contracts/admin-dashboard.ts";
import { PLAN_LABELS } from "../../../../shared/plans.ts";
import { formatCount, formatMoney, formatMoneyTick, formatShare } from "./dashboard-format.ts";

// Colours with at least 3:1 against the white card (WCAG 1.4.11), told apart by more than hue:
// the legend names every series.
const BLUE = "#1d4ed8";
const GREEN = "#166534";
const PURPLE = "#6b21a8";
const AXIS = { fontSize: 12, fill: "#4b5565" };

function Frame({ height, children }: { height: number; children: ReactElement }) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      {children}
    </ResponsiveContainer>
  );
}

const countTooltip = (value: unknown) => formatCount(Number(value));

export function RevenueChart({ months }: { months: Dashboard["revenue"]["months"] }) {
  const data = months.map((month) => ({ ...month, label: formatMonth(month.month, true) }));
  return (
    <Frame height={280}>
      <BarChart data={data} title="Net revenue by month" margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e5e9f0" vertical={false} />
        <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={8} />
        <YAxis tick={AXIS} tickFormatter={formatMoneyTick} width={76} />
        <ReferenceLine y={0} stroke="#8a94a6" />
        <Tooltip formatter={(value) => formatMoney(Number(value))} />
        <Bar dataKey="netMinor" name="Net revenue" fill={BLUE} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function FunnelChart({ steps }: { steps: Dashboard["funnel"]["steps"] }) {
  const data = steps.map((step) => ({
    ...step,
    name: step.conversion === null ? step.label : `${step.label} (${formatShare(step.conversion)})`,
  }));
  return (
    <Frame height={260}>
      <BarChart data={data} layout="vertical" title="Learners at each step" margin={{ top: 0, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e5e9f0" horizontal={false} />
        <XAxis type="number" tick={AXIS} allowDecimals={false} tickFormatter={countTooltip} />
        <YAxis type="category" dataKey="name" tick={AXIS} width={128} />
        <Tooltip formatter={countTooltip} />
        <Bar dataKey="learners" name="Learners" fill={BLUE} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function CompletionChart({ programs }: { programs: Dashboard["completion"]["programs"] }) {
  // Bars across, the programs down the side: their titles wrap there at 360 px.
  return (
    <Frame height={Math.max(200, 72 * programs.length + 60)}>
      <BarChart data={programs} layout="vertical" title="Learners who started and finished each program" margin={{ top: 0, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e5e9f0" horizontal={false} />
        <XAxis type="number" tick={AXIS} allowDecimals={false} tickFormatter={countTooltip} />
        <YAxis type="category" dataKey="title" tick={AXIS} width={110} interval={0} />
        <Tooltip formatter={countTooltip} />
        <Legend itemSorter={null} />
        <Bar dataKey="started" name="Started" fill={BLUE} isAnimationActive={false} />
        <Bar dataKey="finished" name="Finished" fill={GREEN} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function StopsChart({ lessons }: { lessons: Dashboard["stops"]["lessons"] }) {
  const data = lessons.map((lesson) => ({ ...lesson, name: `${lesson.programTitle}: ${lesson.lesson}` }));
  return (
    <Frame height={Math.max(160, 44 * data.length + 40)}>
      <BarChart data={data} layout="vertical" title="Learners at each lesson" margin={{ top: 0, right: 24, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e5e9f0" horizontal={false} />
        <XAxis type="number" tick={AXIS} allowDecimals={false} tickFormatter={countTooltip} />
        <YAxis type="category" dataKey="name" tick={{ ...AXIS, fontSize: 11 }} width={150} interval={0} />
        <Tooltip formatter={countTooltip} />
        <Bar dataKey="learners" name="Learners" fill={PURPLE} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function WaitlistChart({ cohorts }: { cohorts: Dashboard["waitlist"]["cohorts"] }) {
  // Oldest on the left, as time reads; the table lists the latest first.
  const data = [...cohorts].reverse().map((cohort) => ({
    cohort: cohort.cohort,
    intermediate: cohort.tracks.find((track) => track.track === "intermediate")?.paid ?? 0,
    advanced: cohort.tracks.find((track) => track.track === "advanced")?.paid ?? 0,
  }));
  return (
    <Frame height={280}>
      <BarChart data={data} title="Paid waitlist places by cohort and track" margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
        <CartesianGrid stroke="#e5e9f0" vertical={false} />
        <XAxis dataKey="cohort" tick={AXIS} interval="preserveStartEnd" minTickGap={8} />
        <YAxis tick={AXIS} allowDecimals={false} tickFormatter={countTooltip} width={56} />
        <Tooltip formatter={countTooltip} />
        <Legend itemSorter={null} />
        <Bar dataKey="intermediate" name={PLAN_LABELS.intermediate} stackId="places" fill={BLUE} isAnimationActive={false} />
        <Bar dataKey="advanced" name={PLAN_LABELS.advanced} stackId="places" fill={PURPLE} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}
