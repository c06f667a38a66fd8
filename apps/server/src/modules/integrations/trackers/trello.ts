/** Trello as a tracker: a board and list, cards archived (`closed`) when resolved, its webhook on the board. */
import type { TrackerContainer } from "@redline/shared";
import {
  createTrelloClient,
  type TrelloAction,
  type TrelloConfig,
  trelloAuthorizeUrl,
  verifyTrelloWebhook,
} from "../../../integrations/trello/index.ts";
import type { InboundChange, Tracker } from "./tracker.ts";

export function trelloTracker(config: TrelloConfig): Tracker {
  const client = (token: string) => createTrelloClient(config, token);
  return {
    type: "trello",
    authorizeUrl: ({ returnUrl, state }) => {
      const back = new URL(returnUrl);
      back.searchParams.set("state", state);
      return trelloAuthorizeUrl(config, back.toString(), "Redline");
    },
    async connect({ token }) {
      if (!token) throw new Error("Trello hands back a token.");
      const me = await client(token).me();
      return { token, account: me.fullName || me.username };
    },
    async destinations(token) {
      const trello = client(token);
      const boards = await trello.boards();
      return Promise.all(
        boards
          .filter((board) => !board.closed)
          .map(
            async (board): Promise<TrackerContainer> => ({
              id: board.id,
              name: board.name,
              lists: (await trello.lists(board.id)).map(({ id, name }) => ({ id, name })),
            }),
          ),
      );
    },
    async createCard(token, destination, card) {
      const made = await client(token).createCard({
        idList: destination.listId,
        name: card.title,
        desc: card.description,
      });
      return { id: made.id, url: made.shortUrl || made.url };
    },
    async setClosed(token, externalId, closed) {
      await client(token).updateCard(externalId, { closed });
    },
    async deleteCard(token, externalId) {
      await client(token).deleteCard(externalId);
    },
    async watch(token, destination, callbackUrl) {
      const hook = await client(token).createWebhook({
        callbackURL: callbackUrl,
        idModel: destination.containerId,
        description: "Redline: resolve threads when their cards are archived or completed",
      });
      return { hookId: hook.id };
    },
    async unwatch(token, hookId) {
      await client(token).deleteWebhook(hookId);
    },
    verifyInbound({ rawBody, headers, callbackUrl }) {
      const signature = headers["x-trello-webhook"];
      if (
        !verifyTrelloWebhook(
          config,
          rawBody,
          callbackUrl,
          typeof signature === "string" ? signature : undefined,
        )
      )
        return null;
      const { action } = JSON.parse(rawBody) as { action?: TrelloAction };
      const card = action?.data?.card;
      const old = action?.data?.old ?? {};
      if (action?.type !== "updateCard" || !card) return [];
      const changes: InboundChange[] = [];
      // Archiving or marking complete resolves; sending back to the board or unmarking reopens.
      if ("closed" in old && typeof card.closed === "boolean")
        changes.push({ externalId: card.id, closed: card.closed, at: new Date(action.date) });
      else if ("dueComplete" in old && typeof card.dueComplete === "boolean")
        changes.push({ externalId: card.id, closed: card.dueComplete, at: new Date(action.date) });
      return changes;
    },
  };
}
