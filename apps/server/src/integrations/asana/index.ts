/**
 * Asana's REST API (https://developers.asana.com/reference), plain fetch, at a configurable base
 * (ASANA_API_URL, e.g. https://app.asana.com/api/1.0; the embedded stand-in outside production). Not the
 * `asana` npm SDK (v3): it is a generated superagent client whose base path and token live on a shared
 * `ApiClient` instance, it ships no TypeScript types, and it has no OAuth token exchange — the handful of
 * calls below read plainer as fetch, as ClickUp's and Trello's clients do.
 *
 * OAuth (authorization code grant): the browser goes to `${authorizeUrl}?client_id…&redirect_uri…&
 * response_type=code&state…` and returns with `?code=…`; `POST /-/oauth_token` (form-encoded) exchanges it
 * (`grant_type=authorization_code`) or a refresh token (`grant_type=refresh_token`) for an access token that
 * expires after `expires_in` seconds (an hour). Calls carry `Authorization: Bearer …`; bodies and answers
 * are wrapped in `{ data: … }`, errors are `{ errors: [{ message }] }`.
 *
 * Webhooks: on POST /webhooks Asana first POSTs to the target with an `X-Hook-Secret` header, which the
 * target echoes back in its answer (the handshake); later deliveries carry `X-Hook-Signature` = hex
 * HMAC-SHA256 of the raw body under that secret. Events name what changed, not the new value.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  callService,
  type OAuthGrant,
  oauthTokenGrant,
  ServiceError,
  withQuery,
} from "../../lib/service-call.ts";

export interface AsanaConfig {
  /** The API base, e.g. https://app.asana.com/api/1.0 (the paths below are under it). */
  apiUrl: string;
  /** The authorize page, e.g. https://app.asana.com/-/oauth_authorize. */
  authorizeUrl: string;
  /** The token endpoint, e.g. https://app.asana.com/-/oauth_token. */
  tokenUrl: string;
  /** The return route registered with the app (the token exchange names it again). */
  redirectUri: string;
  clientId: string;
  clientSecret: string;
}

/** A call Asana refused or could not answer (lib/service-call.ts). */
export class AsanaError extends ServiceError {}

/** What a token grant gives: the access token, the refresh token (kept), and when the access token ends. */
export type AsanaGrant = OAuthGrant;

export interface AsanaTask {
  gid: string;
  permalink_url?: string;
  completed?: boolean;
}

const SERVICE = { name: "Asana", error: AsanaError };
const request = <T>(url: string, init: RequestInit) => callService<T>(SERVICE, url, init);

export const asanaAuthorizeUrl = (config: AsanaConfig, state: string): string =>
  withQuery(config.authorizeUrl, {
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    response_type: "code",
    state,
  });

const tokenGrant = (config: AsanaConfig, fields: Record<string, string>): Promise<AsanaGrant> =>
  oauthTokenGrant(SERVICE, config.tokenUrl, "form", {
    client_id: config.clientId,
    client_secret: config.clientSecret,
    redirect_uri: config.redirectUri,
    ...fields,
  });

export const exchangeAsanaCode = (config: AsanaConfig, code: string) =>
  tokenGrant(config, { grant_type: "authorization_code", code });

/** A new access token from the refresh token (Asana keeps the refresh token; a refused one answers 400/401). */
export const refreshAsanaToken = (config: AsanaConfig, refreshToken: string) =>
  tokenGrant(config, { grant_type: "refresh_token", refresh_token: refreshToken });

const PAGE_SIZE = 100;
const MAX_PAGES = 20;

export function createAsanaClient(config: AsanaConfig, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown) =>
    (
      await request<{ data: T }>(`${config.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        ...(body !== undefined && { body: JSON.stringify({ data: body }) }),
      })
    ).data;
  /** A paginated list, followed through `next_page.offset` (bounded). */
  const all = async <T>(path: string, query: Record<string, string>) => {
    const items: T[] = [];
    let offset: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const params = new URLSearchParams({ ...query, limit: String(PAGE_SIZE), ...(offset && { offset }) });
      const answer = await request<{ data: T[]; next_page?: { offset?: string } | null }>(
        `${config.apiUrl}${path}?${params}`,
        { headers: { authorization: `Bearer ${token}`, accept: "application/json" } },
      );
      items.push(...answer.data);
      offset = answer.next_page?.offset;
      if (!offset) break;
    }
    return items;
  };
  const id = encodeURIComponent;
  return {
    me: () => call<{ gid: string; name: string; email?: string }>("GET", "/users/me"),
    workspaces: () => all<{ gid: string; name: string }>("/workspaces", {}),
    projects: (workspaceGid: string) =>
      all<{ gid: string; name: string }>(`/workspaces/${id(workspaceGid)}/projects`, { archived: "false" }),
    createTask: (input: { name: string; notes: string; projects: string[] }) =>
      call<AsanaTask>("POST", "/tasks?opt_fields=permalink_url,completed", input),
    task: (taskGid: string) => call<AsanaTask>("GET", `/tasks/${id(taskGid)}?opt_fields=completed`),
    updateTask: (taskGid: string, changes: { completed: boolean }) =>
      call<AsanaTask>("PUT", `/tasks/${id(taskGid)}`, changes),
    deleteTask: (taskGid: string) => call<unknown>("DELETE", `/tasks/${id(taskGid)}`),
    createWebhook: (input: {
      resource: string;
      target: string;
      filters: { resource_type: string; action?: string; fields?: string[] }[];
    }) => call<{ gid: string }>("POST", "/webhooks", input),
    deleteWebhook: (webhookGid: string) => call<unknown>("DELETE", `/webhooks/${id(webhookGid)}`),
  };
}
export type AsanaClient = ReturnType<typeof createAsanaClient>;

/** Whether a delivery is Asana's: `X-Hook-Signature` = hex HMAC-SHA256 of the body under the handshake's secret. */
export function verifyAsanaWebhook(secret: string, rawBody: string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(signature, "hex"), expected);
}

/** One event of a delivery (`events: [...]`; an empty list is Asana's heartbeat). */
export interface AsanaEvent {
  action?: string;
  created_at?: string;
  resource?: { gid?: string; resource_type?: string };
  change?: { field?: string; action?: string };
}
