// The trading calculators (docs/trading.md, "Calculators"). What the learner typed goes into the
// page's address, so a calculation can be shared or bookmarked; the server computes the figures
// and marks any field that makes no sense. Nothing is computed here.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { TOOLS_ENDPOINTS } from "../../../shared/contracts/tools.ts";
import { INSTRUMENTS, type InstrumentSymbol } from "../../../shared/trading/instruments.ts";
import { call } from "../../lib/api.ts";
import { CheckedField } from "../../ui/checked-field.tsx";
import { FormMessages } from "../../ui/form-messages.tsx";
import { CALCULATORS, type CalculatorId } from "./calculators.tsx";
import "./tools.css";

const DEFAULT_CALCULATOR: CalculatorId = "position-size";

export function ToolsPage() {
  const [params, setParams] = useSearchParams();
  const chosen = CALCULATORS.find((calculator) => calculator.id === params.get("calc")) ?? CALCULATORS.find((c) => c.id === DEFAULT_CALCULATOR);
  if (!chosen) throw new Error("no calculators");
  const typed = Object.fromEntries([...params].filter(([name]) => name !== "calc"));
  const asked = Object.keys(typed).length > 0;

  const answer = useQuery({
    queryKey: ["tools", chosen.id, typed],
    queryFn: () => call(TOOLS_ENDPOINTS[chosen.endpoint], { query: typed as never }),
    enabled: asked,
    // While a new answer loads, the last one of the same calculator stays (never another's).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === chosen.id ? previous : undefined),
    staleTime: 60_000,
  });
  const errors = answer.data && !answer.data.ok ? answer.data.errors : {};

  function submit(form: HTMLFormElement) {
    const next = new URLSearchParams({ calc: chosen?.id ?? DEFAULT_CALCULATOR });
    for (const [name, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") next.set(name, value.trim());
    setParams(next);
  }

  return (
    <section className="container section tools">
      <h1>Trading calculators</h1>
      <p className="section-lead">
        Size a position to the risk you choose, and count pips, reward and margin before you trade. Cedi amounts use the rate the academy
        charges at.
      </p>
      <nav aria-label="Calculators" className="tools-nav">
        {CALCULATORS.map((calculator) => (
          <Link key={calculator.id} to={`?calc=${calculator.id}`} aria-current={calculator.id === chosen.id ? "page" : undefined}>
            {calculator.title}
          </Link>
        ))}
      </nav>
      <div className="tools-body">
        <form
          key={`${chosen.id}?${params.toString()}`}
          className="card form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit(event.currentTarget);
          }}
        >
          <h2>{chosen.title}</h2>
          <p className="muted">{chosen.lead}</p>
          <CalculatorFields fields={chosen.fields} typed={typed} errors={errors} />
          <FormMessages error={answer.isError ? answer.error.message : undefined} />
          <button type="submit" className="button">
            Calculate
          </button>
        </form>
        <div className="card tools-answer" aria-live="polite">
          {answer.data?.ok ? (
            <>
              {chosen.answer(answer.data.result as never)}
              <RateLine rate={answer.data.rate} />
            </>
          ) : (
            <p className="muted">{asked && answer.isFetching ? "Calculating..." : "Fill in the form and choose Calculate to see the figures here."}</p>
          )}
        </div>
      </div>
    </section>
  );
}

type FieldSpec = (typeof CALCULATORS)[number]["fields"][number];

function CalculatorFields({ fields, typed, errors }: { fields: readonly FieldSpec[]; typed: Record<string, string>; errors: Record<string, string> }) {
  const [instrument, setInstrument] = useState<InstrumentSymbol>(
    INSTRUMENTS.find((candidate) => candidate.symbol === typed.instrument)?.symbol ?? "EURUSD",
  );
  const usdBase = INSTRUMENTS.find((candidate) => candidate.symbol === instrument)?.usdBase ?? false;
  return (
    <>
      <CheckedField label="Instrument" error={errors.instrument}>
        {(ids) => (
          <select name="instrument" value={instrument} onChange={(event) => setInstrument(event.target.value as InstrumentSymbol)} {...ids}>
            {INSTRUMENTS.map((candidate) => (
              <option key={candidate.symbol} value={candidate.symbol}>
                {candidate.symbol}: {candidate.name}
              </option>
            ))}
          </select>
        )}
      </CheckedField>
      {fields
        .filter((field) => field.when === undefined || field.when === (usdBase ? "usdBase" : "usdQuote"))
        .map((field) => (
          <CheckedField key={field.name} label={field.label.replace("{instrument}", instrument)} hint={field.hint} error={errors[field.name]}>
            {(ids) =>
              field.options ? (
                <select name={field.name} defaultValue={typed[field.name] ?? field.options[0]} {...ids}>
                  {field.options.map((option) => (
                    <option key={option}>{option}</option>
                  ))}
                </select>
              ) : (
                <input name={field.name} inputMode="decimal" autoComplete="off" defaultValue={typed[field.name] ?? ""} {...ids} />
              )
            }
          </CheckedField>
        ))}
    </>
  );
}

function RateLine({ rate }: { rate: { ghsPerUsd: number } | null }) {
  return (
    <p className="muted tools-rate">
      {rate ? `Cedi amounts at GH₵ ${rate.ghsPerUsd} to the dollar.` : "Cedi amounts need the exchange rate, which is not available right now."}
    </p>
  );
}
