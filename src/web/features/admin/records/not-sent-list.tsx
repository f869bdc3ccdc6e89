// The Messages tab's lists of what has not reached the learners (emails, SMS), newest first: a
// heading, a line saying everything went when nothing is listed, else the table, and the error of
// reading it.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { FormMessages } from "../../../ui/form-messages.tsx";

export function NotSentList<Item extends { id: number }>(props: {
  id: string;
  title: string;
  /** Said when nothing is listed. */
  allSent: string;
  query: UseQueryResult<{ total: number; messages: Item[] }>;
  columns: readonly string[];
  row: (item: Item) => ReactNode;
}) {
  const { id, title, query } = props;
  const rows = query.data?.messages ?? [];
  return (
    <section className="stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {query.data && rows.length === 0 ? (
        <p>{props.allSent}</p>
      ) : (
        <table className="admin-table">
          <caption className="visually-hidden">
            {title}, newest first ({query.data?.total ?? 0} in all)
          </caption>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <tr key={item.id}>{props.row(item)}</tr>
            ))}
          </tbody>
        </table>
      )}
      <FormMessages error={query.error?.message} />
    </section>
  );
}
