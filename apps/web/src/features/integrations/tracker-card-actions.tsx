/**
 * On a comment thread, an edit suggestion or a ticket: the links of the cards made from it (SPEC §3's
 * external card URL per tracker) and, for those who manage the project's integrations, "Create card" in
 * each connected tracker that has a list, and deleting a card (SPEC §8's texts). A card the tracker has
 * not made yet (it was down) shows as waiting; the queue makes it later.
 */
import {
  type CardSubject,
  INTEGRATION_MESSAGES,
  TRACKER_NAMES,
  TRACKER_TERMS,
  TRACKER_TYPES,
  type TrackerType,
} from "@redline/shared";
import { ExternalLink, KanbanSquare, Trash2 } from "lucide-react";
import { snackbar } from "../../components/snackbar-store.ts";
import { isApiError } from "../../lib/api.ts";
import { useProjectIntegrations } from "./integrations-queries.ts";
import { useCreateTrackerCard, useDeleteTrackerCard, useTrackerCards } from "./tracker-queries.ts";
import "./integrations.css";

export function TrackerCardActions({
  projectId,
  subject,
  subjectId,
  canManage,
}: {
  projectId: string;
  subject: CardSubject;
  subjectId: string;
  canManage: boolean;
}) {
  const cards = useTrackerCards(projectId);
  const integrations = useProjectIntegrations(projectId, { enabled: canManage });
  const create = useCreateTrackerCard(projectId);
  const remove = useDeleteTrackerCard(projectId);
  const mine = (cards.data ?? []).filter((card) => card.subject === subject && card.subjectId === subjectId);
  const ready = canManage
    ? (integrations.data?.integrations ?? []).filter(
        (integration) =>
          (TRACKER_TYPES as readonly string[]).includes(integration.type) &&
          integration.isEnabled &&
          integration.tracker?.destination &&
          !mine.some((card) => card.tracker === integration.type),
      )
    : [];
  if (mine.length === 0 && ready.length === 0) return null;

  return (
    <div className="tracker-actions">
      {mine.map((card) =>
        card.url ? (
          <span key={card.id} className="tracker-actions__card">
            <a className="tracker-actions__link" href={card.url} target="_blank" rel="noreferrer">
              <ExternalLink size={14} aria-hidden /> Open in {TRACKER_NAMES[card.tracker]}
            </a>
            {canManage ? (
              <button
                type="button"
                className="icon-btn"
                aria-label={`Delete the ${TRACKER_NAMES[card.tracker]} ${TRACKER_TERMS[card.tracker].card}`}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(card, {
                    onSuccess: ({ message }) => snackbar.success(message),
                    onError: () => snackbar.error(INTEGRATION_MESSAGES.failed),
                  })
                }
              >
                <Trash2 size={14} aria-hidden />
              </button>
            ) : null}
          </span>
        ) : (
          <span key={card.id} className="tracker-actions__pending" role="status">
            Waiting for {TRACKER_NAMES[card.tracker]}…
          </span>
        ),
      )}
      {ready.map((integration) => {
        const tracker = integration.type as TrackerType;
        return (
          <button
            key={tracker}
            type="button"
            className="btn btn--ghost"
            disabled={create.isPending}
            onClick={() =>
              create.mutate(
                { tracker, subject, id: subjectId },
                {
                  onSuccess: ({ message }) => snackbar.success(message),
                  onError: (error) =>
                    snackbar.error(
                      isApiError(error) && error.status < 500 ? error.message : INTEGRATION_MESSAGES.failed,
                    ),
                },
              )
            }
          >
            <KanbanSquare size={14} aria-hidden /> Create {TRACKER_NAMES[tracker]}{" "}
            {TRACKER_TERMS[tracker].card}
          </button>
        );
      })}
    </div>
  );
}
