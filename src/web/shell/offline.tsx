// What the app shows about the network and its own version (docs/product.md, "Offline"): the
// "You are offline" notice over a page shown from what was last seen, the offline page with Retry
// where a page has nothing to show, and "New version available" with Reload.
import { useQueryClient, type Query } from "@tanstack/react-query";
import { Component, useState, useSyncExternalStore, type ReactNode } from "react";
import { ApiRequestError } from "../lib/api.ts";
import { useOnline } from "../lib/online.ts";
import { takeNewVersion, useWaitingVersion } from "../lib/service-worker.ts";

export const OFFLINE_NOTICE = "You are offline. Pages you opened before show what you last saw.";

export function OfflineNotice() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-notice" role="status">
      <div className="container">{OFFLINE_NOTICE}</div>
    </div>
  );
}

export function NewVersionPrompt() {
  const waiting = useWaitingVersion();
  if (!waiting) return null;
  return (
    <div className="new-version" role="status">
      <div className="container new-version-inner">
        <span>New version available.</span>
        <button type="button" className="button" onClick={takeNewVersion}>
          Reload
        </button>
      </div>
    </div>
  );
}

/** Retry reloads: the page's code and reads are asked for again, from the network once it is back. */
export function OfflinePage() {
  return (
    <div className="container section narrow offline-page">
      <h1>You are offline</h1>
      <p>This page has not been opened on this device before, so there is nothing of it to show without a connection.</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Retry
      </button>
    </div>
  );
}

/** A read the page shows failed for want of a network and none was kept: the page has nothing to show. */
function failedOffline(query: Query): boolean {
  const { status, data, error } = query.state;
  const optional = query.meta?.["offline"] === "optional";
  return !optional && status === "error" && data === undefined && error instanceof ApiRequestError && error.code === "NETWORK" && query.getObserversCount() > 0;
}

/**
 * Offline, with a read of the page at `pathname` failed and nothing kept of it. Once so, it stays
 * so for that page until the browser is back online: the offline page unmounts the page, whose
 * reads then have no one watching them.
 */
export function useOfflineWithoutData(pathname: string): boolean {
  const online = useOnline();
  const cache = useQueryClient().getQueryCache();
  const failed = useSyncExternalStore(
    (changed) => cache.subscribe(changed),
    () => cache.getAll().some(failedOffline),
  );
  const [offlineAt, setOfflineAt] = useState<string | null>(null);
  if (!online && failed && offlineAt !== pathname) setOfflineAt(pathname);
  if (online && offlineAt !== null) setOfflineAt(null);
  return !online && (failed || offlineAt === pathname);
}

type BoundaryState = { error: unknown; offline: boolean; pathname: string };

/**
 * A page's code that could not be fetched offline (never opened on this device) shows the offline
 * page, whose Retry loads it again; any other error goes on up.
 */
export class OfflineBoundary extends Component<{ pathname: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, offline: false, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown) {
    return { error, offline: !navigator.onLine };
  }

  /** Another page: its own chance (the page itself stays mounted, as between two lessons). */
  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { error: null, offline: false, pathname: props.pathname };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    if (this.state.offline) return <OfflinePage />;
    throw this.state.error;
  }
}
