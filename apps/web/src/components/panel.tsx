/**
 * A section of a settings-like page (the .panel of base.css): named by its heading (`id` is the heading's
 * id), an optional line under it (`text`), then what the section holds.
 */
import type { ReactNode } from "react";

export function Panel({
  id,
  title,
  text,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  text?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={className ? `panel ${className}` : "panel"} aria-labelledby={id}>
      <h2 id={id} className="panel__title">
        {title}
      </h2>
      {text ? <p className="panel__text">{text}</p> : null}
      {children}
    </section>
  );
}
