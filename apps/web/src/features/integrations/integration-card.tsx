/**
 * One integration's card in the project's Integrations panel: its icon, name, what it does and whether it
 * is connected (or disabled), then what the integration's own card puts below.
 */
import type { IntegrationType, ProjectIntegration } from "@redline/shared";
import type { ReactNode } from "react";
import { snackbar } from "../../components/snackbar-store.ts";
import { Switch } from "../../components/switch.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useToggleIntegration } from "./integrations-queries.ts";

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

/**
 * Turns a connected integration on or off (what it keeps while off, `description` says), then says the
 * server's answer; a refusal says `failedText` where given, else the server's error.
 */
export function IntegrationSwitch({
  projectId,
  type,
  label,
  description,
  isEnabled,
  failedText,
}: {
  projectId: string;
  type: IntegrationType;
  label: string;
  description: string;
  isEnabled: boolean;
  failedText?: string;
}) {
  const toggle = useToggleIntegration(projectId);
  return (
    <Switch
      label={label}
      description={description}
      checked={isEnabled}
      disabled={toggle.isPending}
      onCheckedChange={(next) =>
        toggle.mutate(
          { type, isEnabled: next },
          {
            onSuccess: ({ message }) => snackbar.success(message),
            onError: (error) => snackbar.error(failedText ?? errorMessage(error)),
          },
        )
      }
    />
  );
}
