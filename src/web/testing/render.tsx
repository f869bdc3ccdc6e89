// Rendering a page or a panel in a test as the app mounts it: inside a query client of the test's
// own and, where it reads or changes the address, a router at a given path.
import { QueryClient, QueryClientProvider, type QueryKey } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";

/** A query already answered when the test starts: its key and its data. */
export type KnownQuery = readonly [key: QueryKey, data: unknown];

/**
 * A query client for one test, which does not retry (a refused request is the test's answer at
 * once), with `known` answered already; with `neverStale`, those are never asked again.
 */
export function testQueryClient(known: readonly KnownQuery[] = [], options: { neverStale?: boolean } = {}): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, ...(options.neverStale ? { staleTime: Infinity } : {}) } },
  });
  for (const [key, data] of known) client.setQueryData(key, data);
  return client;
}

/** Renders `routes` at `path` in a memory router; returns the router, to read where it went. */
export function renderRoutes(routes: RouteObject[], path: string, client: QueryClient = testQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** Renders `element` with a query client and no router. */
export function renderWithQueries(element: ReactNode, client: QueryClient = testQueryClient()) {
  render(<QueryClientProvider client={client}>{element}</QueryClientProvider>);
}

/** The queries within the table row that shows `text`. */
export function rowWith(text: string) {
  const row = screen.getByText(text).closest("tr");
  if (!row) throw new Error(`no row with ${text}`);
  return within(row);
}
