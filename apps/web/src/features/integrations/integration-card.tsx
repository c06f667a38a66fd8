/**
 * One integration's card in the project's Integrations panel: its icon, name, what it does and whether it
 * is connected (or disabled), then what the integration's own card puts below.
 */
import type { ProjectIntegration } from "@redline/shared";
import type { ReactNode } from "react";

export function IntegrationCard({
  id,
  icon,
  title,
  description,
  integration,
  children,
}: {
  /** The heading's id, which names the card. */
  id: string;
  icon: ReactNode;
  title: string;
  description: ReactNode;
  integration: ProjectIntegration | null | undefined;
  children: ReactNode;
}) {
  return (
    <section className="integration-card" aria-labelledby={id}>
      <header className="integration-card__header">
        {icon}
        <div className="integration-card__title">
          <h3 id={id}>{title}</h3>
          <p>{description}</p>
        </div>
        {integration ? (
          <span className={integration.isEnabled ? "tag tag--success" : "tag"}>
            {integration.isEnabled ? "Connected" : "Disabled"}
          </span>
        ) : null}
      </header>
      {children}
    </section>
  );
}
