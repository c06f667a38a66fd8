/**
 * One integration's card in the project's Integrations panel: its icon, name, what it does and whether it
 * is connected (or disabled), then what the integration's own card puts below.
 */
import type { IntegrationType, ProjectIntegration } from "@redline/shared";
import { Unplug } from "lucide-react";
import { type ReactNode, useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { Switch } from "../../components/switch.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useDisconnectIntegration, useToggleIntegration } from "./integrations-queries.ts";

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

/**
 * 'Disconnect' and its confirmation: once confirmed the integration is deleted and the server's answer
 * said; a refusal says `failedText(error)`. `onDisconnected` forgets what the card held for it.
 */
export function DisconnectButton({
  projectId,
  type,
  label = "Disconnect",
  title,
  description,
  failedText,
  onDisconnected,
}: {
  projectId: string;
  type: IntegrationType;
  label?: string;
  title: string;
  description: string;
  failedText(error: Error): string;
  onDisconnected?(): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const disconnect = useDisconnectIntegration(projectId);
  return (
    <>
      <button type="button" className="btn btn--danger" onClick={() => setConfirming(true)}>
        <Unplug size={16} aria-hidden /> {label}
      </button>
      <ConfirmModal
        open={confirming}
        onOpenChange={setConfirming}
        title={title}
        description={description}
        confirmLabel="Disconnect"
        isPending={disconnect.isPending}
        // The promise, not mutate's callbacks: the card drops this button once the integration is gone
        // (its refetch lands first), and mutate's callbacks never run for an unmounted component.
        onConfirm={() =>
          disconnect.mutateAsync(type).then(
            ({ message }) => {
              snackbar.success(message);
              setConfirming(false);
              onDisconnected?.();
            },
            (error: Error) => snackbar.error(failedText(error)),
          )
        }
      />
    </>
  );
}
