import { MESSAGES } from "@redline/shared";
import { LoaderCircle } from "lucide-react";
import "./status-views.css";

/** Loading states with the spec's texts; the default is 'Loading experience...'. */
export function LoadingView({ text = MESSAGES.loadingDefault }: { text?: string }) {
  return (
    <div className="status-view" role="status" aria-live="polite">
      <LoaderCircle className="spin status-view__spinner" size={28} aria-hidden />
      <p className="status-view__text">{text}</p>
    </div>
  );
}
