// The Dashboard tab, the console's first (docs/admin.md, "Dashboard"): how the academy is doing,
// every figure computed by the server and explained by its caption. Each chart can be shown as a
// table with the same figures; the charts' code loads on demand, after the figures, so the chart
// library never enters the learner's pages. The funnel's period is in the address
// (?from=2026-03-01&to=2026-03-31).
import { lazy, Suspense, useId, useState, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import {
  DASHBOARD_MESSAGES,
  DEFAULT_PERIOD_DAYS,
  addDays,
  formatMonth,
  isCalendarDay,
  periodError,
  type Dashboard,
} from "../../../../shared/contracts/admin-dashboard.ts";
import { PLAN_LABELS } from "../../../../shared/plans.ts";
import { TextField } from "../../../ui/text-field.tsx";
import { useAdminDashboard } from "./dashboard-api.ts";
import { formatCount, formatDays, formatMoney, formatShare } from "./dashboard-format.ts";
import "./dashboard.css";

const charts = () => import("./dashboard-charts.tsx");
const RevenueChart = lazy(async () => ({ default: (await charts()).RevenueChart }));
const FunnelChart = lazy(async () => ({ default: (await charts()).FunnelChart }));
const CompletionChart = lazy(async () => ({ default: (await charts()).CompletionChart }));
const StopsChart = lazy(async () => ({ default: (await charts()).StopsChart }));
const WaitlistChart = lazy(async () => ({ default: (await charts()).WaitlistChart }));

/** Today on the academy's calendar (Africa/Accra, UTC all year). */
const academyToday = () => new Date().toISOString().slice(0, 10);

export function DashboardTab() {
  const [params, setParams] = useSearchParams();
  const dayParam = (name: string) => {
    const value = params.get(name) ?? "";
    return isCalendarDay(value) ? value : "";
  };
  // The inputs show the period asked for in the address, else the last 30 days.
  const to = dayParam("to") || academyToday();
  const from = dayParam("from") || addDays(to, 1 - DEFAULT_PERIOD_DAYS);
  const error = periodError(from, to);
  const dashboard = useAdminDashboard({ from, to }, error === null);

  function setDay(name: "from" | "to", value: string) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });
  }

  if (dashboard.isPending && error === null) {
    return (
      <p role="status" className="muted">
        Loading the dashboard...
      </p>
    );
  }
  const data = dashboard.data;
  const periodForm = (
    <>
      <div className="admin-toolbar dashboard-period" role="group" aria-label="Funnel period">
        <TextField label="From" type="date" value={from} max={to} onChange={(event) => setDay("from", event.target.value)} />
        <TextField label="To" type="date" value={to} min={from} onChange={(event) => setDay("to", event.target.value)} />
      </div>
      {error && (
        <p role="alert" className="form-error load-error">
          {error}
        </p>
      )}
    </>
  );
  if (!data) {
    return (
      <>
        {periodForm}
        {dashboard.isError && (
          <div role="alert" className="form-error load-error">
            <span>{dashboard.error.message}</span>
            <button type="button" className="button button-secondary button-small" onClick={() => void dashboard.refetch()}>
              Try again
            </button>
          </div>
        )}
      </>
    );
  }
  return (
    <div className={dashboard.isPlaceholderData ? "dashboard is-updating" : "dashboard"}>
      {dashboard.isError && (
        <p role="alert" className="form-error load-error">
          {dashboard.error.message}
        </p>
      )}
      <RevenueSection revenue={data.revenue} />
      <LearnersSection learners={data.learners} />
      <RenewalsSection renewals={data.renewals} />
      <FunnelSection funnel={data.funnel} periodForm={periodForm} />
      <CompletionSection completion={data.completion} />
      <StopsSection stops={data.stops} />
      <WaitlistSection waitlist={data.waitlist} />
    </div>
  );
}

type CardProps = { title: string; caption: string; wide?: boolean; actions?: ReactNode; children: ReactNode };

/** One section: a heading, the server's one-line caption, and what it explains. */
function Card({ title, caption, wide = false, actions, children }: CardProps) {
  const headingId = useId();
  return (
    <section className={wide ? "dashboard-card dashboard-card-wide" : "dashboard-card"} aria-labelledby={headingId}>
      <div className="dashboard-card-head">
        <h2 id={headingId}>{title}</h2>
        {actions}
      </div>
      <p className="dashboard-caption">{caption}</p>
      {children}
    </section>
  );
}

type ChartCardProps = Omit<CardProps, "actions" | "children"> & {
  /** What the chart area says when there is nothing to draw; null when there is. */
  empty: string | null;
  chart: ReactNode;
  table: ReactNode;
  /** Shown between the caption and the chart (the funnel's period). */
  before?: ReactNode;
};

/** A chart, or its table on request ("Show as table"), or words where there is nothing to draw. */
function ChartCard({ empty, chart, table, before, ...card }: ChartCardProps) {
  const [asTable, setAsTable] = useState(false);
  const viewId = useId();
  const toggle =
    empty === null ? (
      <button type="button" className="button button-secondary button-small" aria-controls={viewId} onClick={() => setAsTable(!asTable)}>
        {asTable ? "Show as chart" : "Show as table"}
      </button>
    ) : null;
  return (
    <Card {...card} actions={toggle}>
      {before}
      <div id={viewId}>
        {empty !== null ? (
          <div className="chart-area chart-empty">
            <p>{empty}</p>
          </div>
        ) : asTable ? (
          <div className="dashboard-table-wrap" role="region" aria-label={`${card.title}, as a table`} tabIndex={0}>
            {table}
          </div>
        ) : (
          <div className="chart-area">
            <Suspense
              fallback={
                <p role="status" className="muted">
                  Loading the chart...
                </p>
              }
            >
              {chart}
            </Suspense>
          </div>
        )}
      </div>
    </Card>
  );
}

function Figures({ items }: { items: { label: string; value: string; note?: string }[] }) {
  return (
    <dl className="dashboard-figures">
      {items.map((item) => (
        <div key={item.label} className="dashboard-figure">
          <dt>{item.label}</dt>
          <dd>
            {item.value}
            {item.note && <span className="muted dashboard-figure-note">{item.note}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function RevenueSection({ revenue }: { revenue: Dashboard["revenue"] }) {
  const { monthToDate, months } = revenue;
  const thisMonth = months.at(-1)?.month ?? "";
  const lastMonth = months.at(-2)?.month ?? "";
  const change = monthToDate.lastMonthSameDaysMinor === 0 ? null : monthToDate.thisMonthMinor / monthToDate.lastMonthSameDaysMinor - 1;
  const nothing = months.every((month) => month.receivedMinor === 0 && month.refundedMinor === 0);
  return (
    <ChartCard
      wide
      title="Revenue by month"
      caption={revenue.caption}
      empty={nothing ? DASHBOARD_MESSAGES.noRevenue : null}
      before={
        <>
          <Figures
            items={[
              {
                label: `${formatMonth(thisMonth)} so far`,
                value: formatMoney(monthToDate.thisMonthMinor),
                ...(change === null ? {} : { note: `${change >= 0 ? "+" : ""}${formatShare(change)} on the same days` }),
              },
              { label: `${formatMonth(lastMonth)}, days 1 to ${monthToDate.days}`, value: formatMoney(monthToDate.lastMonthSameDaysMinor) },
              { label: `All of ${formatMonth(lastMonth)}`, value: formatMoney(monthToDate.lastMonthMinor) },
            ]}
          />
          <p className="dashboard-caption">{monthToDate.caption}</p>
        </>
      }
      chart={<RevenueChart months={months} />}
      table={
        <table className="admin-table">
          <caption className="visually-hidden">Revenue by month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="cell-number">
                Received
              </th>
              <th scope="col" className="cell-number">
                Refunded
              </th>
              <th scope="col" className="cell-number">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row">{formatMonth(month.month)}</th>
                <td className="cell-number">{formatMoney(month.receivedMinor)}</td>
                <td className="cell-number">{formatMoney(month.refundedMinor)}</td>
                <td className="cell-number">{formatMoney(month.netMinor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function LearnersSection({ learners }: { learners: Dashboard["learners"] }) {
  return (
    <Card title="Paid learners today" caption={learners.caption}>
      {learners.total === 0 ? (
        <p className="dashboard-empty">{DASHBOARD_MESSAGES.noLearners}</p>
      ) : (
        <Figures
          items={[
            ...learners.byPlan.map((row) => ({ label: PLAN_LABELS[row.plan], value: formatCount(row.learners) })),
            { label: "All paid plans", value: formatCount(learners.total) },
          ]}
        />
      )}
    </Card>
  );
}

function RenewalsSection({ renewals }: { renewals: Dashboard["renewals"] }) {
  return (
    <Card title="Renewals and expiries" caption={renewals.caption}>
      <Figures
        items={[
          { label: "Due in the next 7 days", value: formatCount(renewals.due) },
          {
            label: "Renewed already",
            value: formatCount(renewals.renewed),
            ...(renewals.due > 0 ? { note: `${formatShare(renewals.renewed / renewals.due)} of those due` } : {}),
          },
        ]}
      />
      <p className="dashboard-caption">{renewals.expiriesCaption}</p>
      <Figures items={[{ label: "Expired in the last 30 days, not renewed", value: formatCount(renewals.expiredNotRenewed) }]} />
    </Card>
  );
}

function FunnelSection({ funnel, periodForm }: { funnel: Dashboard["funnel"]; periodForm: ReactNode }) {
  const registered = funnel.steps[0]?.learners ?? 0;
  return (
    <ChartCard
      wide
      title="From registration to payment"
      caption={funnel.caption}
      before={periodForm}
      empty={registered === 0 ? DASHBOARD_MESSAGES.noRegistrations : null}
      chart={<FunnelChart steps={funnel.steps} />}
      table={
        <table className="admin-table">
          <caption className="visually-hidden">From registration to payment</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" className="cell-number">
                Learners
              </th>
              <th scope="col" className="cell-number">
                Of the step before
              </th>
            </tr>
          </thead>
          <tbody>
            {funnel.steps.map((step) => (
              <tr key={step.step}>
                <th scope="row">{step.label}</th>
                <td className="cell-number">{formatCount(step.learners)}</td>
                <td className="cell-number">{formatShare(step.conversion)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function CompletionSection({ completion }: { completion: Dashboard["completion"] }) {
  const nobody = completion.programs.every((program) => program.started === 0 && program.finished === 0);
  return (
    <ChartCard
      title="Completion"
      caption={completion.caption}
      empty={nobody ? DASHBOARD_MESSAGES.noCompletion : null}
      chart={<CompletionChart programs={completion.programs} />}
      table={
        <table className="admin-table">
          <caption className="visually-hidden">Completion</caption>
          <thead>
            <tr>
              <th scope="col">Program</th>
              <th scope="col" className="cell-number">
                Started
              </th>
              <th scope="col" className="cell-number">
                Finished
              </th>
              <th scope="col" className="cell-number">
                Median time to finish
              </th>
            </tr>
          </thead>
          <tbody>
            {completion.programs.map((program) => (
              <tr key={program.programId}>
                <th scope="row">{program.title}</th>
                <td className="cell-number">{formatCount(program.started)}</td>
                <td className="cell-number">{formatCount(program.finished)}</td>
                <td className="cell-number">{formatDays(program.medianDaysToFinish)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function StopsSection({ stops }: { stops: Dashboard["stops"] }) {
  return (
    <ChartCard
      title="Where learners stop"
      caption={stops.caption}
      empty={stops.lessons.length === 0 ? DASHBOARD_MESSAGES.noStops : null}
      chart={<StopsChart lessons={stops.lessons} />}
      table={
        <table className="admin-table">
          <caption className="visually-hidden">Where learners stop</caption>
          <thead>
            <tr>
              <th scope="col">Program</th>
              <th scope="col">Lesson</th>
              <th scope="col" className="cell-number">
                Learners
              </th>
            </tr>
          </thead>
          <tbody>
            {stops.lessons.map((lesson) => (
              <tr key={`${lesson.programId} ${lesson.lesson}`}>
                <td>{lesson.programTitle}</td>
                <td>{lesson.lesson}</td>
                <td className="cell-number">{formatCount(lesson.learners)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function WaitlistSection({ waitlist }: { waitlist: Dashboard["waitlist"] }) {
  return (
    <ChartCard
      wide
      title="Waitlist places"
      caption={waitlist.caption}
      empty={waitlist.cohorts.length === 0 ? DASHBOARD_MESSAGES.noWaitlist : null}
      chart={<WaitlistChart cohorts={waitlist.cohorts} />}
      table={
        <table className="admin-table">
          <caption className="visually-hidden">Waitlist places</caption>
          <thead>
            <tr>
              <th scope="col">Cohort</th>
              <th scope="col">Track</th>
              <th scope="col" className="cell-number">
                Paid places
              </th>
              <th scope="col" className="cell-number">
                Admitted
              </th>
            </tr>
          </thead>
          <tbody>
            {waitlist.cohorts.flatMap((cohort) =>
              cohort.tracks.map((track) => (
                <tr key={`${cohort.cohort} ${track.track}`}>
                  <td>{cohort.cohort}</td>
                  <td>{PLAN_LABELS[track.track]}</td>
                  <td className="cell-number">{formatCount(track.paid)}</td>
                  <td className="cell-number">{formatCount(track.admitted)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      }
    />
  );
}
