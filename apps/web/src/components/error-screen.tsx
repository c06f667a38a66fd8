import { MESSAGES } from "@redline/shared";
import { TriangleAlert } from "lucide-react";
import "./status-views.css";

/** The generic error screen (SPEC §2): 'Something went wrong...' with 'Reload page' and 'Go to home'. */
export function ErrorScreen() {
  return (
    <div className="status-view" role="alert">
      <TriangleAlert className="status-view__icon" size={32} aria-hidden />
      <h1 className="status-view__title">{MESSAGES.somethingWentWrong}</h1>
      <div className="status-view__actions">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          {MESSAGES.reloadPage}
        </button>
        <button type="button" className="btn" onClick={() => window.location.assign("/")}>
          {MESSAGES.goToHome}
        </button>
      </div>
    </div>
  );
}
