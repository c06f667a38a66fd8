/** Billing could not be read: say so inside the screen, with a way to try again. */
import { TriangleAlert } from "lucide-react";

export function BillingLoadError({ onRetry, isRetrying }: { onRetry(): void; isRetrying: boolean }) {
  return (
    <div className="empty-state" role="alert">
      <TriangleAlert size={28} aria-hidden className="empty-state__icon" />
      <h2 className="empty-state__title">Billing could not be loaded</h2>
      <p className="empty-state__text">
        Your plan and payments are safe; we just could not read them right now. Try again in a moment.
      </p>
      <button type="button" className="btn" onClick={onRetry} disabled={isRetrying}>
        {isRetrying ? "Please wait..." : "Try again"}
      </button>
    </div>
  );
}
