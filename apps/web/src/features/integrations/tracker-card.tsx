/**
 * A task tracker's card in the Integrations panel (Trello, ClickUp, GitHub, Asana): connect (through the tracker's
 * authorize page and the return route), where cards go (a board and list / a list / a repository / a project, in the
 * tracker's own words, TRACKER_TERMS), the automatic rule,
 * enable/disable and disconnect — SPEC §8's texts, 'Something went wrong' on a failed connect or
 * disconnect — and the guide modal.
 */
import {
  INTEGRATION_MESSAGES,
  MERGE_GATE,
  type ProjectIntegration,
  TRACKER_MESSAGES,
  TRACKER_NAMES,
  TRACKER_TERMS,
  type TrackerType,
} from "@redline/shared";
import { CircleHelp, KanbanSquare, Link2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Field } from "../../components/field.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { Switch } from "../../components/switch.tsx";
import { errorMessage } from "../../lib/auth-client.ts";
import { DisconnectButton, IntegrationCard, IntegrationSwitch } from "./integration-card.tsx";
import { TrackerGuide } from "./tracker-guide.tsx";
import {
  useSaveTracker,
  useSetMergeGate,
  useStartTrackerConnect,
  useTrackerDestinations,
} from "./tracker-queries.ts";

export function TrackerCard({
  projectId,
  tracker,
  integration,
}: {
  projectId: string;
  tracker: TrackerType;
  integration: ProjectIntegration | null;
}) {
  const name = TRACKER_NAMES[tracker];
  const [guide, setGuide] = useState(false);
  const start = useStartTrackerConnect(projectId, tracker);
  const state = integration?.tracker ?? null;
  const headingId = `integration-${tracker}`;

  const connect = () =>
    start.mutate(undefined, { onError: () => snackbar.error(TRACKER_MESSAGES.failedLong) });

  return (
    <IntegrationCard
      id={headingId}
      icon={<KanbanSquare size={20} aria-hidden />}
      title={name}
      description={
        <>
          Turn comments, edit suggestions and tickets into {name} {TRACKER_TERMS[tracker].cards}; resolving
          either side resolves the other.
        </>
      }
      integration={integration}
    >
      {!integration ? (
        <div className="integration-card__actions">
          <button type="button" className="btn btn--primary" disabled={start.isPending} onClick={connect}>
            <Link2 size={16} aria-hidden /> Connect {name}
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setGuide(true)}>
            <CircleHelp size={16} aria-hidden /> How it works
          </button>
        </div>
      ) : (
        <>
          {state?.account ? <p className="integration-card__note">Connected as {state.account}.</p> : null}
          {state?.needsReconnect ? (
            <div className="integration-card__note" role="alert">
              <p>
                {name} no longer accepts Redline's access (it was revoked or ran out). Reconnect to keep
                making {TRACKER_TERMS[tracker].cards} and following them.
              </p>
              <button type="button" className="btn btn--primary" disabled={start.isPending} onClick={connect}>
                <Link2 size={16} aria-hidden /> Reconnect {name}
              </button>
            </div>
          ) : null}
          <DestinationForm projectId={projectId} tracker={tracker} integration={integration} />
          {tracker === "github" && state?.destination ? (
            <MergeGateSwitch projectId={projectId} isOn={state.mergeGate} repository={state.destination} />
          ) : null}
          <IntegrationSwitch
            projectId={projectId}
            type={tracker}
            label={`Send to ${name}`}
            description="While off, no card is made and none follows its thread; the choices are kept."
            isEnabled={integration.isEnabled}
          />
          <div className="integration-card__actions">
            <button type="button" className="btn btn--ghost" onClick={() => setGuide(true)}>
              <CircleHelp size={16} aria-hidden /> How it works
            </button>
            {state?.needsReconnect ? null : (
              <button type="button" className="btn" disabled={start.isPending} onClick={connect}>
                <Link2 size={16} aria-hidden /> Connect again
              </button>
            )}
            <DisconnectButton
              projectId={projectId}
              type={tracker}
              title={`Disconnect ${name}?`}
              description={`Redline forgets its ${name} access and where cards go at once. Cards already made stay in ${name}, and their links here.`}
              // SPEC §8: a failed task-tracker disconnect shows the error's text.
              failedText={(error) => errorMessage(error) || INTEGRATION_MESSAGES.failed}
            />
          </div>
        </>
      )}
      <TrackerGuide tracker={tracker} open={guide} onOpenChange={setGuide} />
    </IntegrationCard>
  );
}

function DestinationForm({
  projectId,
  tracker,
  integration,
}: {
  projectId: string;
  tracker: TrackerType;
  integration: ProjectIntegration;
}) {
  const saved = integration.tracker?.destination ?? null;
  const destinations = useTrackerDestinations(projectId, tracker, true);
  const save = useSaveTracker(projectId, tracker);
  const [containerId, setContainerId] = useState(saved?.containerId ?? "");
  const [listId, setListId] = useState(saved?.listId ?? "");
  const [autoCreate, setAutoCreate] = useState(integration.tracker?.autoCreate ?? false);
  const [error, setError] = useState<string | null>(null);
  const containers = destinations.data ?? [];
  // One workspace (ClickUp's usual case) needs no choosing.
  const container =
    containers.find((c) => c.id === containerId) ?? (containers.length === 1 ? containers[0] : undefined);
  const terms = TRACKER_TERMS[tracker];
  const capital = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!container) return setError(`Choose ${article(terms.container)} ${terms.container}.`);
    if (!listId) return setError(`Choose ${article(terms.list)} ${terms.list}.`);
    setError(null);
    save.mutate(
      { containerId: container.id, listId, autoCreate },
      {
        onSuccess: ({ message }) => snackbar.success(message),
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };

  if (destinations.isPending)
    return (
      <p className="integration-card__note" role="status">
        Loading your {TRACKER_NAMES[tracker]} {tracker === "trello" ? terms.containers : terms.lists}…
      </p>
    );
  if (destinations.isError)
    return (
      <p className="integration-card__note" role="alert">
        {errorMessage(destinations.error)}{" "}
        <button type="button" className="btn btn--ghost" onClick={() => destinations.refetch()}>
          Try again
        </button>
      </p>
    );
  return (
    <form className="integration-card__form" onSubmit={handleSubmit} noValidate>
      {containers.length > 1 || tracker === "trello" ? (
        <Field label={capital(terms.container)}>
          {(control) => (
            <select
              {...control}
              className="input"
              value={container?.id ?? ""}
              onChange={(change) => {
                setContainerId(change.target.value);
                setListId("");
              }}
            >
              <option value="">Choose…</option>
              {containers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <Field label={capital(terms.list)} error={error}>
        {(control) => (
          <select
            {...control}
            className="input"
            value={listId}
            disabled={!container}
            onChange={(change) => {
              setListId(change.target.value);
              setError(null);
            }}
          >
            <option value="">Choose…</option>
            {(container?.lists ?? []).map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Switch
        label={`Create ${article(terms.card)} ${terms.card} for each new comment and ticket`}
        checked={autoCreate}
        onCheckedChange={setAutoCreate}
      />
      <button type="submit" className="btn btn--primary" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

/**
 * GitHub's merge gate: checked as the server last said (never ahead of it); pull requests whose preview is
 * one of the project's pages get a "Redline review" status.
 */
function MergeGateSwitch({
  projectId,
  isOn,
  repository,
}: {
  projectId: string;
  isOn: boolean;
  repository: { containerId: string; listId: string };
}) {
  const gate = useSetMergeGate(projectId);
  return (
    <Switch
      label="Merge gate"
      description={`Pull requests of ${repository.containerId}/${repository.listId} whose preview is a page of this project get a “${MERGE_GATE.context}” status: pending while the page is unapproved or has open comments, success once it is approved.`}
      checked={isOn}
      disabled={gate.isPending}
      onCheckedChange={(isEnabled) =>
        gate.mutate(isEnabled, {
          onSuccess: ({ message }) => snackbar.success(message),
          onError: (error) => snackbar.error(errorMessage(error) || TRACKER_MESSAGES.failed),
        })
      }
    />
  );
}

/** "a" or "an" before a tracker's word (an issue, an account). */
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");
