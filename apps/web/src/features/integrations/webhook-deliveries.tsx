/** The webhook's delivery log: the latest 50, re-read every few seconds, each with a replay. */
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery } from "@redline/shared";
import { RotateCw } from "lucide-react";
import { snackbar } from "../../components/snackbar-store.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { useReplayDelivery, useWebhookDeliveries } from "./integrations-queries.ts";

const STATUS_LABELS: Record<WebhookDelivery["status"], string> = {
  pending: "Pending",
  retrying: "Retrying",
  succeeded: "Delivered",
  failed: "Failed",
};
const STATUS_TAGS: Record<WebhookDelivery["status"], string> = {
  pending: "tag",
  retrying: "tag tag--warning",
  succeeded: "tag tag--success",
  failed: "tag tag--danger",
};

export function WebhookDeliveries({ projectId }: { projectId: string }) {
  const deliveries = useWebhookDeliveries(projectId);
  const replay = useReplayDelivery(projectId);
  return (
    <div className="integration-card__section">
      <h4>Deliveries</h4>
      {deliveries.isPending ? (
        <p className="integration-card__note" role="status">
          Loading deliveries…
        </p>
      ) : deliveries.isError ? (
        <p className="integration-card__note" role="alert">
          The deliveries could not be loaded: {errorMessage(deliveries.error)}
        </p>
      ) : deliveries.data.length === 0 ? (
        <p className="integration-card__empty">No deliveries yet: they appear here as events happen.</p>
      ) : (
        <table className="integration-card__deliveries" aria-label="Deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Response</th>
              <th scope="col">When</th>
              <th scope="col">
                <span className="visually-hidden">Replay</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((delivery) => (
              <tr key={delivery.id}>
                <td>{WEBHOOK_EVENT_LABELS[delivery.event]}</td>
                <td>
                  <span className={STATUS_TAGS[delivery.status]} title={delivery.lastError ?? undefined}>
                    {STATUS_LABELS[delivery.status]}
                  </span>
                </td>
                <td>{delivery.attempts}</td>
                <td>{delivery.responseStatus ?? "—"}</td>
                <td>{new Date(delivery.createdAt).toLocaleTimeString()}</td>
                <td>
                  <button
                    type="button"
                    className="btn"
                    aria-label={`Replay the ${WEBHOOK_EVENT_LABELS[delivery.event]} delivery`}
                    disabled={replay.isPending || delivery.status === "pending"}
                    onClick={() =>
                      replay.mutate(delivery.id, {
                        onSuccess: ({ message }) => snackbar.success(message),
                        onError: (error) => snackbar.error(errorMessage(error)),
                      })
                    }
                  >
                    <RotateCw size={14} aria-hidden /> Replay
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
