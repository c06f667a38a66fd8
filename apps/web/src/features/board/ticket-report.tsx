/**
 * What the widget captured with a report: the screenshot with the reporter's marks, the page, the
 * element, viewport, browser and OS, and the console errors and failed requests (collapsible lists).
 */
import type { TicketReport as Report, Ticket } from "@redline/shared";
import { ExternalLink } from "lucide-react";

function ConsoleList({ entries }: { entries: Report["console"] }) {
  const errors = entries.filter((entry) => entry.level !== "log" && entry.level !== "info");
  if (entries.length === 0) return null;
  return (
    <details className="ticket-report__details" open={errors.length > 0 && errors.length <= 5}>
      <summary>
        Console{" "}
        <span className="ticket-report__count">
          {errors.length === 1
            ? "1 error or warning"
            : errors.length > 0
              ? `${errors.length} errors and warnings`
              : entries.length === 1
                ? "1 message"
                : `${entries.length} messages`}
        </span>
      </summary>
      <ol className="ticket-report__log" aria-label="Console messages">
        {entries.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a captured log never reorders
          <li key={index} className={`ticket-report__line is-${entry.level}`}>
            <span className="ticket-report__level">{entry.level}</span>
            <span className="ticket-report__message">{entry.message}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

function RequestList({ entries }: { entries: Report["failedRequests"] }) {
  if (entries.length === 0) return null;
  return (
    <details className="ticket-report__details" open={entries.length <= 5}>
      <summary>
        Failed requests <span className="ticket-report__count">{entries.length}</span>
      </summary>
      <ol className="ticket-report__log" aria-label="Failed requests">
        {entries.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a captured log never reorders
          <li key={index} className="ticket-report__line is-error">
            <span className="ticket-report__level">{entry.status === 0 ? "failed" : entry.status}</span>
            <span className="ticket-report__message">
              {entry.method} {entry.url}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

export function TicketReportView({ ticket }: { ticket: Ticket }) {
  const report = ticket.report;
  if (!report && !ticket.screenshotUrl) return null;
  return (
    <section className="ticket-report" aria-label="Report">
      {ticket.screenshotUrl ? (
        <a className="ticket-report__shot" href={ticket.screenshotUrl} target="_blank" rel="noreferrer">
          <img
            src={ticket.screenshotUrl}
            alt={`Screenshot sent with report #${ticket.number}, with the reporter's marks`}
          />
        </a>
      ) : null}
      {report ? (
        <>
          <dl className="ticket-report__facts">
            <dt>Page</dt>
            <dd>
              <a className="link ticket-report__url" href={report.pageUrl} target="_blank" rel="noreferrer">
                {report.pageTitle || report.pageUrl}
                <ExternalLink size={12} aria-hidden />
              </a>
            </dd>
            {report.element ? (
              <>
                <dt>Element</dt>
                <dd>
                  <code className="ticket-report__code">{report.element.selector}</code>
                  {report.element.text ? (
                    <span className="ticket-report__hint"> “{report.element.text}”</span>
                  ) : null}
                </dd>
              </>
            ) : null}
            <dt>Viewport</dt>
            <dd>
              {report.viewport.width} × {report.viewport.height}
              {report.viewport.devicePixelRatio !== 1 ? ` @${report.viewport.devicePixelRatio}x` : ""}
            </dd>
            {report.browser || report.os ? (
              <>
                <dt>Browser</dt>
                <dd>{[report.browser, report.os].filter(Boolean).join(" on ")}</dd>
              </>
            ) : null}
            {ticket.hasReplay ? (
              <>
                <dt>Replay</dt>
                <dd>A session replay of the last two minutes is attached.</dd>
              </>
            ) : null}
          </dl>
          <ConsoleList entries={report.console} />
          <RequestList entries={report.failedRequests} />
        </>
      ) : null}
    </section>
  );
}
