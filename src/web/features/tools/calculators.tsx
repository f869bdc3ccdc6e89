// The four calculators the tools page offers: their fields, as the server's endpoints name them,
// and how each answer reads (docs/trading.md, "Calculators").
import type { ReactNode } from "react";
import type { Answer } from "../../../shared/contracts/endpoint.ts";
import type { TOOLS_ENDPOINTS } from "../../../shared/contracts/tools.ts";
import { BALANCE_CURRENCIES } from "../../../shared/trading/instruments.ts";
import { Figure, grouped, Money } from "../../ui/money.tsx";

type Endpoints = typeof TOOLS_ENDPOINTS;
type ResultOf<K extends keyof Endpoints> = Extract<Answer<Endpoints[K]>, { ok: true }>["result"];

type Field = {
  name: string;
  label: string;
  hint?: string;
  options?: readonly string[];
  /** Asked only for a dollar-based pair (USDJPY), or only for one quoted in dollars (EURUSD). */
  when?: "usdBase" | "usdQuote";
};

type Calculator<K extends keyof Endpoints> = {
  id: string;
  endpoint: K;
  title: string;
  lead: string;
  fields: readonly Field[];
  answer: (result: ResultOf<K>) => ReactNode;
};

const calculator = <K extends keyof Endpoints>(spec: Calculator<K>) => spec;

const priceOf = (when: Field["when"]): Field => ({ name: "price", label: "Price of {instrument}", hint: "The price now, to count in dollars.", when });
const lots: Field = { name: "lots", label: "Size (lots)", hint: "One lot is 100,000 units of a currency, or 100 ounces of gold." };

export const CALCULATORS = [
  calculator({
    id: "position-size",
    endpoint: "positionSize",
    title: "Position size",
    lead: "How many lots to trade so that the stop-loss costs the share of your balance you choose.",
    fields: [
      { name: "balance", label: "Account balance" },
      { name: "currency", label: "Balance currency", options: BALANCE_CURRENCIES },
      { name: "riskPercent", label: "Risk (% of balance)" },
      { name: "stopPips", label: "Stop-loss (pips)" },
      priceOf("usdBase"),
    ],
    answer: (result) => (
      <dl className="tools-figures">
        <Figure term="Position size">
          <strong>{result.lots} lots</strong> ({grouped(result.units)} units)
        </Figure>
        {result.lots === "0.00" && (
          <p className="form-error">
            Below the smallest lot: 0.01 lot would lose <Money money={result.smallestLotRisk} /> at this stop.
          </p>
        )}
        <Figure term="Amount at risk">
          <Money money={result.riskAmount} />
        </Figure>
        <Figure term="Loss at the stop with this size">
          <Money money={result.riskAtSize} />
        </Figure>
        <Figure term="Pip value per lot">
          <Money money={result.pipValuePerLot} />
        </Figure>
      </dl>
    ),
  }),
  calculator({
    id: "pip-value",
    endpoint: "pipValue",
    title: "Pip value",
    lead: "What one pip of price movement is worth on the size you trade.",
    fields: [lots, priceOf("usdBase")],
    answer: (result) => (
      <dl className="tools-figures">
        <Figure term="One pip on this size">
          <strong>
            <Money money={result.perPip} />
          </strong>
        </Figure>
        <Figure term="One pip on a lot">
          <Money money={result.perLot} />
        </Figure>
      </dl>
    ),
  }),
  calculator({
    id: "risk-reward",
    endpoint: "riskReward",
    title: "Risk to reward",
    lead: "How far the stop and the target are from the entry, and what the target pays for each unit risked.",
    fields: [
      { name: "entry", label: "Entry price" },
      { name: "stop", label: "Stop-loss price" },
      { name: "target", label: "Take-profit price" },
    ],
    answer: (result) => (
      <dl className="tools-figures">
        <Figure term="Risk to reward">
          <strong>1 : {result.ratio}</strong> ({result.direction === "buy" ? "a buy" : "a sell"})
        </Figure>
        <Figure term="Risk">{result.riskPips} pips</Figure>
        <Figure term="Reward">{result.rewardPips} pips</Figure>
        <Figure term="Wins needed to break even">{result.breakEvenWinRate}% of trades</Figure>
      </dl>
    ),
  }),
  calculator({
    id: "margin",
    endpoint: "margin",
    title: "Margin",
    lead: "What your broker holds to open a position at your leverage.",
    fields: [lots, { name: "leverage", label: "Leverage (1:x)", hint: "100 means 1:100." }, priceOf("usdQuote")],
    answer: (result) => (
      <dl className="tools-figures">
        <Figure term="Margin">
          <strong>
            <Money money={result.margin} />
          </strong>
        </Figure>
        <Figure term="Position value">
          <Money money={result.notional} />
        </Figure>
      </dl>
    ),
  }),
] as const;

export type CalculatorId = (typeof CALCULATORS)[number]["id"];


