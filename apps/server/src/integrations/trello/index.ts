/**
 * Trello's REST API (https://developer.atlassian.com/cloud/trello/rest/), plain fetch, at a configurable
 * origin (TRELLO_API_URL; the embedded stand-in outside production). Authorization is client.js's: the
 * browser goes to `${authorizeUrl}?key…&return_url…&callback_method=fragment&response_type=token` and
 * comes back with `#token=…`; each call then carries the key and token in Trello's `Authorization: OAuth …` header. Webhooks are signed
 * with the application's secret: `X-Trello-Webhook` = base64 HMAC-SHA1(body + callbackURL).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { callService, ServiceError, withQuery } from "../../lib/service-call.ts";

export interface TrelloConfig {
  /** API origin, e.g. https://api.trello.com (the `/1/…` paths below it). */
  apiUrl: string;
  /** The authorize page, e.g. https://trello.com/1/authorize. */
  authorizeUrl: string;
  apiKey: string;
  apiSecret: string;
}

/** A call Trello refused or could not answer (lib/service-call.ts). */
export class TrelloError extends ServiceError {}

export interface TrelloCard {
  id: string;
  url: string;
  shortUrl: string;
  closed: boolean;
  dueComplete: boolean;
}

export interface TrelloAction {
  id: string;
  type: string;
  date: string;
  data: { card?: { id: string; closed?: boolean; dueComplete?: boolean }; old?: Record<string, unknown> };
}

export const trelloAuthorizeUrl = (config: TrelloConfig, returnUrl: string, appName: string): string =>
  withQuery(config.authorizeUrl, {
    key: config.apiKey,
    name: appName,
    scope: "read,write",
    expiration: "never",
    response_type: "token",
    callback_method: "fragment",
    return_url: returnUrl,
  });

export function createTrelloClient(config: TrelloConfig, token: string) {
  async function call<T>(method: string, path: string, params: Record<string, string> = {}): Promise<T> {
    const url = new URL(`${config.apiUrl}/1${path}`);
    url.search = new URLSearchParams(params).toString();
    return callService<T>({ name: "Trello", error: TrelloError }, url.toString(), {
      method,
      // The key and token in a header, not the URL, so no log line along the way holds them.
      headers: {
        accept: "application/json",
        authorization: `OAuth oauth_consumer_key="${config.apiKey}", oauth_token="${token}"`,
      },
    });
  }
  return {
    me: () => call<{ id: string; fullName: string; username: string }>("GET", "/members/me"),
    boards: () =>
      call<{ id: string; name: string; closed: boolean }[]>("GET", "/members/me/boards", {
        filter: "open",
        fields: "name,closed",
      }),
    lists: (boardId: string) =>
      call<{ id: string; name: string }[]>("GET", `/boards/${encodeURIComponent(boardId)}/lists`, {
        filter: "open",
      }),
    createCard: (input: { idList: string; name: string; desc: string }) =>
      call<TrelloCard>("POST", "/cards", { ...input, pos: "top" }),
    updateCard: (id: string, changes: { closed?: boolean; dueComplete?: boolean }) =>
      call<TrelloCard>(
        "PUT",
        `/cards/${encodeURIComponent(id)}`,
        Object.fromEntries(Object.entries(changes).map(([key, value]) => [key, String(value)])),
      ),
    deleteCard: (id: string) => call<unknown>("DELETE", `/cards/${encodeURIComponent(id)}`),
    createWebhook: (input: { callbackURL: string; idModel: string; description: string }) =>
      call<{ id: string }>("POST", "/webhooks", input),
    deleteWebhook: (id: string) => call<unknown>("DELETE", `/webhooks/${encodeURIComponent(id)}`),
  };
}
export type TrelloClient = ReturnType<typeof createTrelloClient>;

/** Whether a webhook request is Trello's own (its signature over the body and the callback URL). */
export function verifyTrelloWebhook(
  config: Pick<TrelloConfig, "apiSecret">,
  rawBody: string,
  callbackUrl: string,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = createHmac("sha1", config.apiSecret)
    .update(rawBody + callbackUrl)
    .digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
