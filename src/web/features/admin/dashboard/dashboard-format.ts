// How the dashboard's figures read, in its tables and in its charts alike.
import { formatGhs } from "../../../../shared/billing.ts";

const whole = new Intl.NumberFormat("en-US");
const share = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** 1234 -> "1,234". */
export const formatCount = (value: number) => whole.format(value);

/** 0.4567 -> "45.7%"; no share (after a step of nobody) reads as a dash. */
export const formatShare = (value: number | null) => (value === null ? "–" : share.format(value));

/** Pesewas as cedis (docs/data.md, "Money"): 123450 -> "GH₵ 1,234.50"; below 0 with a minus. */
export const formatMoney = (amountMinor: number) => (amountMinor < 0 ? `−${formatGhs(-amountMinor)}` : formatGhs(amountMinor));

/** An axis tick: 1234500000 pesewas -> "GH₵ 12.3M". */
export const formatMoneyTick = (amountMinor: number) => `GH₵ ${compact.format(amountMinor / 100)}`;

/** Days with one decimal, or a dash without any finisher. */
export const formatDays = (days: number | null) => (days === null ? "–" : `${days.toLocaleString("en-US", { maximumFractionDigits: 1 })} days`);
