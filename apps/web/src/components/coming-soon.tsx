import { Construction } from "lucide-react";
import type { ReactNode } from "react";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import "./status-views.css";

/** An honest placeholder for screens that arrive in later work: a title, one sentence, no fake data. */
export function ComingSoon({
  title,
  tabTitle,
  notice,
  children,
}: {
  title: string;
  /** Defaults to the title. */
  tabTitle?: string;
  /** What the user must know about the thing now, above the placeholder (e.g. an expired project). */
  notice?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(tabTitle ?? title);
  return (
    <main className="coming-soon">
      {notice}
      <section className="coming-soon__panel" aria-labelledby="coming-soon-title">
        <Construction className="coming-soon__icon" size={28} aria-hidden />
        <h1 id="coming-soon-title" className="coming-soon__title">
          {title}
        </h1>
        <p className="coming-soon__text">{children}</p>
        <p className="coming-soon__badge">Coming soon</p>
      </section>
    </main>
  );
}
