/** ClickUp as a tracker: a list (under its workspace), tasks set to `complete` when resolved. */
import type { TrackerContainer } from "@redline/shared";
import {
  type ClickupConfig,
  clickupAuthorizeUrl,
  createClickupClient,
  exchangeClickupCode,
  verifyClickupWebhook,
} from "../../../integrations/clickup/index.ts";
import type { InboundChange, Tracker } from "./tracker.ts";

/** The statuses a resolved and a reopened task take (ClickUp's defaults for a list). */
const CLOSED_STATUS = "complete";
const OPEN_STATUS = "to do";

interface StatusEvent {
  event?: string;
  task_id?: string;
  history_items?: { field?: string; date?: string; after?: { status?: string; type?: string } }[];
}

export function clickupTracker(config: ClickupConfig): Tracker {
  const client = (token: string) => createClickupClient(config, token);
  return {
    type: "clickup",
    authorizeUrl: ({ returnUrl, state }) => clickupAuthorizeUrl(config, returnUrl, state),
    async connect({ code }) {
      if (!code) throw new Error("ClickUp hands back a code.");
      const token = await exchangeClickupCode(config, code);
      const { user } = await client(token).user();
      return { token, account: user.username };
    },
    async destinations(token) {
      const clickup = client(token);
      const { teams } = await clickup.teams();
      return Promise.all(
        teams.map(async (team): Promise<TrackerContainer> => {
          const { spaces } = await clickup.spaces(team.id);
          const lists = await Promise.all(
            spaces.map(async (space) =>
              (await clickup.lists(space.id)).lists.map((list) => ({
                id: list.id,
                name: `${space.name} / ${list.name}`,
              })),
            ),
          );
          return { id: team.id, name: team.name, lists: lists.flat() };
        }),
      );
    },
    async createCard(token, destination, card) {
      const task = await client(token).createTask(destination.listId, {
        name: card.title,
        markdown_description: card.description,
      });
      return { id: task.id, url: task.url };
    },
    async setClosed(token, externalId, closed) {
      await client(token).updateTask(externalId, { status: closed ? CLOSED_STATUS : OPEN_STATUS });
    },
    async deleteCard(token, externalId) {
      await client(token).deleteTask(externalId);
    },
    async watch(token, destination, callbackUrl) {
      const made = await client(token).createWebhook(destination.containerId, {
        endpoint: callbackUrl,
        events: ["taskStatusUpdated", "taskDeleted"],
        list_id: destination.listId,
      });
      return { hookId: made.id, hookSecret: made.webhook.secret };
    },
    async unwatch(token, hookId) {
      await client(token).deleteWebhook(hookId);
    },
    verifyInbound({ rawBody, headers }, secrets) {
      const signature = headers["x-signature"];
      if (
        !secrets.hookSecret ||
        !verifyClickupWebhook(
          secrets.hookSecret,
          rawBody,
          typeof signature === "string" ? signature : undefined,
        )
      )
        return null;
      const body = JSON.parse(rawBody) as StatusEvent;
      if (body.event !== "taskStatusUpdated" || !body.task_id) return [];
      const changes: InboundChange[] = [];
      for (const item of body.history_items ?? []) {
        if (item.field !== "status" || !item.after) continue;
        changes.push({
          externalId: body.task_id,
          closed: item.after.type === "closed" || item.after.type === "done",
          at: new Date(Number(item.date) || Date.parse(item.date ?? "")),
        });
      }
      return changes;
    },
  };
}
