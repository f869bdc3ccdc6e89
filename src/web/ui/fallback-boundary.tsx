// Around a part of a page that may fail without the page failing: code loaded on demand that
// cannot be fetched offline (the toasts, a lesson's questions), docs/product.md "Offline".
import { Component, type ReactNode } from "react";

export class FallbackBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
