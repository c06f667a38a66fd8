/**
 * The Slack card: connect (Slack's OAuth v2 install, back through /integration/slack/{projectId}), choose
 * the channel Redline posts to, enable/disable, disconnect — SPEC §8's texts on success, 'Something went
 * wrong' when Slack or the server could not do it.
 */
import { INTEGRATION_MESSAGES, type ProjectIntegration } from "@redline/shared";
import { Hash } from "lucide-react";
import { snackbar } from "../../components/snackbar-store.ts";
import { DisconnectButton, IntegrationCard, IntegrationSwitch } from "./integration-card.tsx";
import { useChooseSlackChannel, useConnectSlack, useSlackChannels } from "./integrations-queries.ts";

export function SlackCard({
  projectId,
  integration,
  onLeave = (url: string) => window.location.assign(url),
}: {
  projectId: string;
  integration: ProjectIntegration | null;
  /** Where the browser goes to install (tests watch it). */
  onLeave?: (url: string) => void;
}) {
  const connect = useConnectSlack(projectId);
  const choose = useChooseSlackChannel(projectId);
  const channels = useSlackChannels(projectId, { enabled: integration !== null });
  const slack = integration?.slack ?? null;
  const failed = () => snackbar.error(INTEGRATION_MESSAGES.failed);

  return (
    <IntegrationCard
      id="integration-slack"
      icon={<Hash size={20} aria-hidden />}
      title="Slack"
      description={
        <>
          New comments are posted to a channel, each comment's replies in its Slack thread; replies written in
          the thread come back here.
        </>
      }
      integration={integration}
    >
      {integration === null ? (
        <button
          type="button"
          className="btn btn--primary"
          disabled={connect.isPending}
          onClick={() => connect.mutate(undefined, { onSuccess: (url) => onLeave(url), onError: failed })}
        >
          Connect Slack
        </button>
      ) : (
        <>
          <p>Workspace: {slack?.teamName}</p>
          <label className="field">
            <span className="field__label">Channel</span>
            <select
              value={slack?.channelId ?? ""}
              disabled={channels.isPending || choose.isPending}
              onChange={(event) =>
                event.target.value &&
                choose.mutate(event.target.value, {
                  onSuccess: ({ message }) => snackbar.success(message),
                  onError: failed,
                })
              }
            >
              <option value="">{channels.isPending ? "Loading channels…" : "Choose a channel"}</option>
              {(channels.data ?? []).map((channel) => (
                <option key={channel.id} value={channel.id}>
                  #{channel.name}
                </option>
              ))}
            </select>
          </label>
          {channels.isError ? (
            <p role="alert" className="field__error">
              {INTEGRATION_MESSAGES.failed}
            </p>
          ) : null}
          <IntegrationSwitch
            projectId={projectId}
            type="slack"
            label="Post to Slack"
            description="While off, nothing is posted; the workspace and channel are kept."
            isEnabled={integration.isEnabled}
            failedText={INTEGRATION_MESSAGES.failed}
          />
          <DisconnectButton
            projectId={projectId}
            type="slack"
            label="Disconnect Slack"
            title="Disconnect Slack?"
            description="Redline stops posting to Slack and forgets the workspace's token."
            failedText={() => INTEGRATION_MESSAGES.failed}
          />
        </>
      )}
    </IntegrationCard>
  );
}
