/**
 * A project's Integrations panel (issue #30): for its owner and editors (the button shows only with the
 * project's `update` ability, the same rule the server's integrations policy holds). It lists the
 * integrations this build connects — the Zapier/Webhook one (webhook-card.tsx) and the task trackers
 * Trello, ClickUp and GitHub (tracker-card.tsx); a screen never shows
 * integrations this build connects — Slack (slack-card.tsx) and the Zapier/Webhook one (webhook-card.tsx); a screen never shows
 * a card for an integration that does not work yet. A plan without integrations gets the upgrade prompt.
 */
import { TRACKER_TYPES } from "@redline/shared";
import { Blocks, RotateCw, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Modal } from "../../components/modal.tsx";
import { isPlanRefusal, PlanLimitText } from "../../components/plan-limit-text.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { useProjectIntegrations } from "./integrations-queries.ts";
import { SlackCard } from "./slack-card.tsx";
import { TrackerCard } from "./tracker-card.tsx";
import { WebhookCard } from "./webhook-card.tsx";
import "./integrations.css";

export const INTEGRATIONS_PANEL = {
  title: "Integrations",
  intro: "Send what happens in this project to the tools your team already uses.",
} as const;

export function IntegrationsButton({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const [open, setOpen] = useState(false);
  if (!canManage) return null;
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        <Blocks size={16} aria-hidden /> {INTEGRATIONS_PANEL.title}
      </button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        title={INTEGRATIONS_PANEL.title}
        description={INTEGRATIONS_PANEL.intro}
      >
        {open ? <IntegrationsPanel projectId={projectId} onNavigate={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

export function IntegrationsPanel({ projectId, onNavigate }: { projectId: string; onNavigate?: () => void }) {
  const integrations = useProjectIntegrations(projectId);
  if (integrations.isPending)
    return (
      <div className="integrations__skeleton" role="status" aria-busy="true">
        <span className="visually-hidden">Loading the project's integrations</span>
      </div>
    );
  if (integrations.isError) {
    if (isPlanRefusal(integrations.error))
      return (
        <div className="integrations__upgrade" role="alert">
          <p>
            <PlanLimitText message={integrations.error.message} onNavigate={onNavigate} />
          </p>
        </div>
      );
    return (
      <div className="integrations__error" role="alert">
        <TriangleAlert size={20} aria-hidden />
        <p>The integrations could not be loaded: {errorMessage(integrations.error)}</p>
        <button type="button" className="btn" onClick={() => integrations.refetch()}>
          <RotateCw size={16} aria-hidden /> Try again
        </button>
      </div>
    );
  }
  const webhook =
    integrations.data.integrations.find((integration) => integration.type === "webhook") ?? null;
  const slack = integrations.data.integrations.find((integration) => integration.type === "slack") ?? null;
  return (
    <div className="integrations">
      {integrations.data.available.includes("slack") ? (
        <SlackCard projectId={projectId} integration={slack} />
      ) : null}
      {integrations.data.available.includes("webhook") ? (
        <WebhookCard projectId={projectId} integration={webhook} />
      ) : null}
      {TRACKER_TYPES.filter((tracker) => integrations.data.available.includes(tracker)).map((tracker) => (
        <TrackerCard
          key={tracker}
          projectId={projectId}
          tracker={tracker}
          integration={
            integrations.data.integrations.find((integration) => integration.type === tracker) ?? null
          }
        />
      ))}
    </div>
  );
}
