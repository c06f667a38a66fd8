import { Component, type ReactNode } from "react";
import { ErrorScreen } from "./error-screen.tsx";

/** Catches what happens outside the router (providers, the router itself). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { hasError: boolean }> {
  override state = { hasError: false };

  static getDerivedStateFromError() {
    return { hasError: true };
  }

  override render() {
    return this.state.hasError ? <ErrorScreen /> : this.props.children;
  }
}
