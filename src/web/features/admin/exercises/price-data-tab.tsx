// The Price Data tab (docs/trading.md, "Price data"): the bars exercises replay. An administrator
// uploads MetaTrader 5's or TradingView's export with what the file does not say (a name, the
// instrument, its pip size and the timeframe); the server takes the file whole or names its first
// bad line, which is shown here as it was said.
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { TIMEFRAMES, type PriceDataSet, type Timeframe } from "../../../../shared/contracts/price-data.ts";
import { INSTRUMENTS } from "../../../../shared/trading/instruments.ts";
import { ApiRequestError } from "../../../lib/api.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { ConfirmDialog } from "../../../ui/modal.tsx";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { SelectField, TextField } from "../../../ui/text-field.tsx";
import { notify } from "../../../ui/toast.tsx";
import { usePriceDataSets, useRemovePriceData, useUploadPriceData } from "./price-data-api.ts";
import "./price-data.css";

const GROUPED = new Intl.NumberFormat("en-US");

export function PriceDataTab() {
  const [page, setPage] = usePageParam();
  const dataSets = usePriceDataSets(page);
  const rows = dataSets.data?.dataSets ?? [];
  return (
    <>
      <UploadForm />
      <h2 className="price-data-heading">Data sets</h2>
      <PagedTable
        query={dataSets}
        rowCount={rows.length}
        label="Price data sets"
        loadingText="Loading the data sets..."
        empty="No data sets yet. Upload one above."
        onPageChange={setPage}
      >
        <DataSetTable dataSets={rows} />
      </PagedTable>
    </>
  );
}

type UploadValues = { name: string; instrument: string; pipSize: string; timeframe: Timeframe };

function UploadForm() {
  const upload = useUploadPriceData();
  // A new key empties the file input once its file is kept.
  const [fileKey, setFileKey] = useState(0);
  const fileId = useId();
  const instrumentsId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  const form = useForm<UploadValues>({ defaultValues: { name: "", instrument: "", pipSize: "", timeframe: "H1" } });

  const submit = form.handleSubmit(async (details) => {
    setDone("");
    if (!file) {
      setError("Choose the CSV file to upload.");
      return;
    }
    setError("");
    try {
      const { dataSet } = await upload.mutateAsync({ file, details });
      setDone(`${dataSet.name}: ${GROUPED.format(dataSet.barCount)} bars kept.`);
      form.reset({ ...details, name: "" });
      setFile(null);
      setFileKey((key) => key + 1);
    } catch (caught) {
      setError(caught instanceof ApiRequestError ? caught.message : "The file could not be uploaded. Try again in a moment.");
    }
  });

  /** A known instrument's pip size is filled in; the administrator can still change it. */
  function instrumentChosen(symbol: string) {
    const known = INSTRUMENTS.find((instrument) => instrument.symbol === symbol.trim().toUpperCase());
    if (known && !form.getValues("pipSize")) form.setValue("pipSize", known.pipSize);
  }

  return (
    <form className="price-data-upload" onSubmit={(event) => void submit(event)} aria-labelledby={`${fileId}-title`} noValidate>
      <h2 id={`${fileId}-title`}>Upload price data</h2>
      <p className="muted">
        A CSV file from MetaTrader 5 (Export bars) or TradingView (Export chart data), up to 20,000 bars. The file is kept whole or refused
        whole; a refusal names its first bad line.
      </p>
      <div className="field">
        <label htmlFor={fileId}>CSV file</label>
        <input
          key={fileKey}
          id={fileId}
          type="file"
          accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
      </div>
      <div className="price-data-fields">
        <TextField label="Name" hint="How the exercise editor lists it: EURUSD H1, March 2024." autoComplete="off" {...form.register("name")} />
        <TextField
          label="Instrument"
          hint="EURUSD, GBPUSD, USDJPY, XAUUSD or any other."
          autoComplete="off"
          list={instrumentsId}
          {...form.register("instrument", { onBlur: (event: { target: HTMLInputElement }) => instrumentChosen(event.target.value) })}
        />
        <datalist id={instrumentsId}>
          {INSTRUMENTS.map((instrument) => (
            <option key={instrument.symbol} value={instrument.symbol}>
              {instrument.name}
            </option>
          ))}
        </datalist>
        <TextField label="Pip size" hint="0.0001 for most pairs, 0.01 for yen pairs, 0.1 for gold." inputMode="decimal" autoComplete="off" {...form.register("pipSize")} />
        <SelectField label="Timeframe" hint="One bar's length." {...form.register("timeframe")}>
          {TIMEFRAMES.map((timeframe) => (
            <option key={timeframe} value={timeframe}>
              {timeframe}
            </option>
          ))}
        </SelectField>
      </div>
      <button type="submit" className="button" disabled={upload.isPending}>
        {upload.isPending ? "Uploading..." : "Upload Data Set"}
      </button>
      <FormMessages error={error} success={done} />
    </form>
  );
}

const BAR_TIME = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

const SOURCE_LABEL: Record<PriceDataSet["source"], string> = { metatrader5: "MetaTrader 5", tradingview: "TradingView", generated: "Generated" };

function DataSetTable({ dataSets }: { dataSets: PriceDataSet[] }) {
  const remove = useRemovePriceData();
  const [removing, setRemoving] = useState<PriceDataSet | null>(null);

  async function confirmRemove(set: PriceDataSet) {
    try {
      await remove.mutateAsync(set.id);
      notify.success(`${set.name} was removed.`);
    } catch (caught) {
      notify.error(caught instanceof ApiRequestError ? caught.message : "The data set could not be removed. Try again in a moment.");
    } finally {
      setRemoving(null);
    }
  }

  return (
    <>
      <table className="admin-table price-data-table">
        <caption className="visually-hidden">Price data sets</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Instrument</th>
            <th scope="col">Bars</th>
            <th scope="col">From and to (file times, UTC)</th>
            <th scope="col">Source</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {dataSets.map((set) => (
            <tr key={set.id}>
              <td>
                {set.name}
                {set.illustrative && <span className="badge badge-neutral price-data-badge">Illustrative</span>}
              </td>
              <td>
                {set.instrument} {set.timeframe}
                <div className="muted">pip {set.pipSize}</div>
              </td>
              <td>{GROUPED.format(set.barCount)}</td>
              <td>
                {BAR_TIME.format(new Date(set.firstBarAt))} to {BAR_TIME.format(new Date(set.lastBarAt))}
              </td>
              <td>{SOURCE_LABEL[set.source]}</td>
              <td className="cell-actions">
                <button type="button" className="button button-small button-secondary" onClick={() => setRemoving(set)}>
                  Remove<span className="visually-hidden"> {set.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {removing && (
        <ConfirmDialog
          title="Remove this data set?"
          message={`${removing.name} and its ${GROUPED.format(removing.barCount)} bars will be removed for good.`}
          confirmLabel="Remove Data Set"
          busy={remove.isPending}
          onConfirm={() => void confirmRemove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </>
  );
}
