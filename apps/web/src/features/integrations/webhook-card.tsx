/**
 * The Zapier/Webhook card: a URL and the events it hears (connect, then change), the signing secret shown
 * once (on connecting and on each rotation), enable/disable, disconnect, Zapier's subscriptions, and the
 * delivery log with a replay for each delivery. SPEC §8's texts on success, 'Something went wrong' on a
 * failed connect or disconnect.
 */
import {
  INTEGRATION_MESSAGES,
  type ProjectIntegration,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  webhookConfigSchema,
} from "@redline/shared";
import { Check, Copy, KeyRound, Webhook } from "lucide-react";
import { type FormEvent, useState } from "react";
import { AddressField } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { useCopy } from "../../lib/use-copy.ts";
import { DisconnectButton, IntegrationCard, IntegrationSwitch } from "./integration-card.tsx";
import { useRotateWebhookSecret, useSaveWebhook } from "./integrations-queries.ts";
import { WebhookDeliveries } from "./webhook-deliveries.tsx";

const DEFAULT_EVENTS: WebhookEvent[] = ["comment.created", "comment.replied", "comment.resolved"];

export function WebhookCard({
  projectId,
  integration,
}: {
  projectId: string;
  integration: ProjectIntegration | null;
}) {
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useRotateWebhookSecret(projectId);
  const webhook = integration?.webhook ?? null;

  return (
    <IntegrationCard
      id="integration-webhook"
      icon={<Webhook size={20} aria-hidden />}
      title="Zapier/Webhook"
      description={
        <>
          Each event is POSTed as JSON to your URL, signed with Standard Webhooks (webhook-id,
          webhook-timestamp, webhook-signature). Zapier's REST hooks subscribe with an API token.
        </>
      }
      integration={integration}
    >
      <WebhookForm
        projectId={projectId}
        url={webhook?.url ?? ""}
        events={webhook?.url ? webhook.events : DEFAULT_EVENTS}
        isConnected={integration !== null}
        onSecret={setSecret}
      />

      {secret ? <SecretBox secret={secret} /> : null}

      {integration ? (
        <>
          <IntegrationSwitch
            projectId={projectId}
            type="webhook"
            label="Send events"
            description="While off, nothing is sent; the URL, events and secret are kept."
            isEnabled={integration.isEnabled}
          />
          {webhook?.subscriptions.some((subscription) => subscription.source === "zapier") ? (
            <div className="integration-card__section">
              <h4>Zapier subscriptions</h4>
              <ul className="integration-card__list">
                {webhook.subscriptions
                  .filter((subscription) => subscription.source === "zapier")
                  .map((subscription) => (
                    <li key={subscription.id}>
                      <code>{subscription.url}</code> ·{" "}
                      {subscription.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(", ")}
                    </li>
                  ))}
              </ul>
            </div>
          ) : null}
          <WebhookDeliveries projectId={projectId} />
          <div className="integration-card__actions">
            <button
              type="button"
              className="btn"
              disabled={rotate.isPending}
              onClick={() =>
                rotate.mutate(undefined, {
                  onSuccess: (saved) => {
                    setSecret(saved.secret ?? null);
                    snackbar.success(saved.message);
                  },
                  onError: (error) => snackbar.error(errorMessage(error)),
                })
              }
            >
              <KeyRound size={16} aria-hidden /> Rotate secret
            </button>
            {webhook?.previousSecretExpiresAt ? (
              <span className="integration-card__note">
                The previous secret signs too until{" "}
                {new Date(webhook.previousSecretExpiresAt).toLocaleString()}.
              </span>
            ) : null}
            <DisconnectButton
              projectId={projectId}
              type="webhook"
              title="Disconnect Zapier/Webhook?"
              description="Its URL, events, secret, subscriptions and delivery log are deleted at once."
              failedText={() => INTEGRATION_MESSAGES.failed}
              onDisconnected={() => setSecret(null)}
            />
          </div>
        </>
      ) : null}
    </IntegrationCard>
  );
}

function WebhookForm({
  projectId,
  url: savedUrl,
  events: savedEvents,
  isConnected,
  onSecret,
}: {
  projectId: string;
  url: string;
  events: WebhookEvent[];
  isConnected: boolean;
  onSecret(secret: string): void;
}) {
  const [url, setUrl] = useState(savedUrl);
  const [events, setEvents] = useState<WebhookEvent[]>(savedEvents);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveWebhook(projectId);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = webhookConfigSchema.safeParse({ url, events });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Check the URL and events.");
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: (saved) => {
        snackbar.success(saved.message);
        if (saved.secret) onSecret(saved.secret);
      },
      onError: (failure) => {
        setError(errorMessage(failure));
        if (!isConnected) snackbar.error(INTEGRATION_MESSAGES.failed);
      },
    });
  };

  return (
    <form className="integration-card__form" onSubmit={handleSubmit} noValidate>
      <AddressField
        label="Webhook URL"
        error={error}
        value={url}
        placeholder="https://hooks.zapier.com/hooks/catch/…"
        onValue={(next) => {
          setUrl(next);
          setError(null);
        }}
      />
      <fieldset className="integration-card__events">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((name) => (
          <label key={name} className="integration-card__event">
            <input
              type="checkbox"
              checked={events.includes(name)}
              onChange={(change) =>
                setEvents((current) =>
                  change.target.checked ? [...current, name] : current.filter((other) => other !== name),
                )
              }
            />
            {WEBHOOK_EVENT_LABELS[name]}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="btn btn--primary" disabled={save.isPending}>
        {isConnected ? "Save" : "Connect"}
      </button>
    </form>
  );
}

function SecretBox({ secret }: { secret: string }) {
  const { isCopied, copy } = useCopy(() => false);
  return (
    <div className="integration-card__secret" role="status">
      <p>
        Signing secret — copy it now, it is shown only once. Verify each request with it (any Standard
        Webhooks library does).
      </p>
      <div className="integration-card__secret-row">
        <code data-testid="webhook-secret">{secret}</code>
        <button
          type="button"
          className="btn"
          aria-label="Copy the signing secret"
          onClick={() => copy(secret)}
        >
          {isCopied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
          {isCopied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
