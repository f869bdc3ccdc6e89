// Money and figures the server worked out, as the trading pages show them (docs/trading.md,
// "Rounding"): the amounts come as decimal strings rounded by the server; this only writes them.
import type { ReactNode } from "react";

/** A decimal string with its thousands grouped: "1000" -> "1,000", "-1250.50" -> "-1,250.50". */
export function grouped(decimal: string): string {
  const [whole = "", fraction] = decimal.split(".");
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

/** An amount in dollars: "$10.00", "−$12.50". */
export function dollars(amount: string): string {
  return amount.startsWith("-") ? `−$${grouped(amount.slice(1))}` : `$${grouped(amount)}`;
}

/** An amount in cedis: "GH₵ 150.00", "−GH₵ 187.50". */
export function cedis(amount: string): string {
  return amount.startsWith("-") ? `−GH₵ ${grouped(amount.slice(1))}` : `GH₵ ${grouped(amount)}`;
}

/** Dollars, and cedis beside them where the academy had a rate. */
export function Money({ money }: { money: { usd: string; ghs: string | null } }) {
  return (
    <>
      {dollars(money.usd)}
      {money.ghs !== null && <span className="muted"> ({cedis(money.ghs)})</span>}
    </>
  );
}

/** One figure of a result: a term and its value, in a description list. */
export function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
