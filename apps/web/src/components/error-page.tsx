import { errorTitle, MESSAGES } from "@redline/shared";
import { Link } from "react-router";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import "./status-views.css";

/** 'Error: {code}' (default 404) with a 'Take me home' link to `/projects` (SPEC §2). */
export function ErrorPage({ code = 404, detail }: { code?: number; detail?: string }) {
  const title = errorTitle(code);
  useDocumentTitle(title);
  return (
    <main className="status-view status-view--page">
      <p className="status-view__code" aria-hidden>
        {code}
      </p>
      <h1 className="status-view__title">{title}</h1>
      <p className="status-view__text">
        {detail ??
          (code === 404
            ? "We couldn't find the page you were looking for."
            : "This request could not be handled.")}
      </p>
      <div className="status-view__actions">
        <Link className="btn btn--primary" to="/projects">
          {MESSAGES.takeMeHome}
        </Link>
      </div>
    </main>
  );
}
