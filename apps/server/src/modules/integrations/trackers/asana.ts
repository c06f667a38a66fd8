/**
 * Asana as a tracker: a project (under its workspace), tasks completed when resolved. Its access tokens
 * expire after an hour (`refresh`); its webhook, on the project, is set up by a handshake (`handshake`) and
 * tells only that a task's `completed` changed, so the operation reads the task (`isClosed`).
 */
import type { TrackerContainer } from "@redline/shared";
import {
  type AsanaConfig,
  type AsanaEvent,
  type AsanaGrant,
  asanaAuthorizeUrl,
  createAsanaClient,
  exchangeAsanaCode,
  refreshAsanaToken,
  verifyAsanaWebhook,
} from "../../../integrations/asana/index.ts";
import type { InboundChange, Tracker, TrackerGrant } from "./tracker.ts";

const grantOf = (grant: AsanaGrant): TrackerGrant => ({
  token: grant.accessToken,
  expiresAt: grant.expiresAt,
  ...(grant.refreshToken && { refreshToken: grant.refreshToken }),
});

const header = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

export function asanaTracker(config: AsanaConfig): Tracker {
  const client = (token: string) => createAsanaClient(config, token);
  return {
    type: "asana",
    // The redirect URI is the app's return route (config.redirectUri), registered with the Asana app.
    authorizeUrl: ({ state }) => asanaAuthorizeUrl(config, state),
    async connect({ code }) {
      if (!code) throw new Error("Asana hands back a code.");
      const grant = grantOf(await exchangeAsanaCode(config, code));
      const me = await client(grant.token).me();
      return { ...grant, account: me.name };
    },
    async refresh(refreshToken) {
      const grant = grantOf(await refreshAsanaToken(config, refreshToken));
      // Asana keeps the refresh token (an answer without one means the same one still works).
      return { refreshToken, ...grant };
    },
    async destinations(token) {
      const asana = client(token);
      const workspaces = await asana.workspaces();
      return Promise.all(
        workspaces.map(
          async (workspace): Promise<TrackerContainer> => ({
            id: workspace.gid,
            name: workspace.name,
            lists: (await asana.projects(workspace.gid)).map(({ gid, name }) => ({ id: gid, name })),
          }),
        ),
      );
    },
    async createCard(token, destination, card) {
      const task = await client(token).createTask({
        name: card.title,
        notes: card.description,
        projects: [destination.listId],
      });
      return { id: task.gid, url: task.permalink_url ?? "" };
    },
    async setClosed(token, externalId, closed) {
      await client(token).updateTask(externalId, { completed: closed });
    },
    async deleteCard(token, externalId) {
      await client(token).deleteTask(externalId);
    },
    async isClosed(token, externalId) {
      return (await client(token).task(externalId)).completed === true;
    },
    async watch(token, destination, callbackUrl) {
      // The secret arrives through the handshake while this call is in flight (see `handshake`).
      const made = await client(token).createWebhook({
        resource: destination.listId,
        target: callbackUrl,
        filters: [{ resource_type: "task", action: "changed", fields: ["completed"] }],
      });
      return { hookId: made.gid };
    },
    async unwatch(token, hookId) {
      await client(token).deleteWebhook(hookId);
    },
    handshake({ headers }) {
      const secret = header(headers["x-hook-secret"]);
      if (!secret) return null;
      return { headers: { "X-Hook-Secret": secret }, hookSecret: secret };
    },
    verifyInbound({ rawBody, headers }, secrets) {
      if (
        !secrets.hookSecret ||
        !verifyAsanaWebhook(secrets.hookSecret, rawBody, header(headers["x-hook-signature"]))
      )
        return null;
      const { events } = JSON.parse(rawBody) as { events?: AsanaEvent[] };
      const changes: InboundChange[] = [];
      for (const event of events ?? []) {
        if (
          event.action !== "changed" ||
          event.resource?.resource_type !== "task" ||
          !event.resource.gid ||
          event.change?.field !== "completed"
        )
          continue;
        changes.push({
          externalId: event.resource.gid,
          closed: null,
          at: new Date(Date.parse(event.created_at ?? "")),
        });
      }
      return changes;
    },
  };
}
