/**
 * ClickUp's API v2 (https://clickup.com/api), plain fetch, at a configurable origin (CLICKUP_API_URL; the
 * embedded stand-in outside production). OAuth: the browser goes to `${authorizeUrl}?client_id…&
 * redirect_uri…&state…` and returns with `?code=…`, exchanged at `POST /api/v2/oauth/token`; calls carry
 * the token in `Authorization` (no scheme, as ClickUp's docs show). Webhooks are signed per webhook:
 * `X-Signature` = hex HMAC-SHA256 of the body under the secret ClickUp returned when it was made.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { callService, ServiceError, withQuery } from "../../lib/service-call.ts";

export interface ClickupConfig {
  /** API origin, e.g. https://api.clickup.com (the `/api/v2/…` paths below it). */
  apiUrl: string;
  /** The authorize page, e.g. https://app.clickup.com/api. */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
}

/** A call ClickUp refused or could not answer (lib/service-call.ts). */
export class ClickupError extends ServiceError {}

export interface ClickupTask {
  id: string;
  url: string;
  status: { status: string; type: string };
}

const SERVICE = { name: "ClickUp", error: ClickupError };
const request = <T>(url: string, init: RequestInit) => callService<T>(SERVICE, url, init);

export const clickupAuthorizeUrl = (config: ClickupConfig, redirectUri: string, state: string): string =>
  withQuery(config.authorizeUrl, {
    client_id: config.clientId,
    redirect_uri: redirectUri,
    state,
  });

export async function exchangeClickupCode(config: ClickupConfig, code: string): Promise<string> {
  const url = new URL(`${config.apiUrl}/api/v2/oauth/token`);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    client_secret: config.clientSecret,
    code,
  }).toString();
  const { access_token } = await request<{ access_token: string }>(url.toString(), { method: "POST" });
  return access_token;
}

export function createClickupClient(config: ClickupConfig, token: string) {
  const call = <T>(method: string, path: string, body?: unknown) =>
    request<T>(`${config.apiUrl}/api/v2${path}`, {
      method,
      headers: {
        authorization: token,
        accept: "application/json",
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const id = encodeURIComponent;
  return {
    user: () => call<{ user: { id: number; username: string } }>("GET", "/user"),
    teams: () => call<{ teams: { id: string; name: string }[] }>("GET", "/team"),
    spaces: (teamId: string) =>
      call<{ spaces: { id: string; name: string }[] }>("GET", `/team/${id(teamId)}/space`),
    lists: (spaceId: string) =>
      call<{ lists: { id: string; name: string }[] }>("GET", `/space/${id(spaceId)}/list`),
    createTask: (listId: string, input: { name: string; markdown_description: string }) =>
      call<ClickupTask>("POST", `/list/${id(listId)}/task`, input),
    updateTask: (taskId: string, changes: { status: string }) =>
      call<ClickupTask>("PUT", `/task/${id(taskId)}`, changes),
    deleteTask: (taskId: string) => call<unknown>("DELETE", `/task/${id(taskId)}`),
    createWebhook: (teamId: string, input: { endpoint: string; events: string[]; list_id?: string }) =>
      call<{ id: string; webhook: { id: string; secret: string } }>(
        "POST",
        `/team/${id(teamId)}/webhook`,
        input,
      ),
    deleteWebhook: (webhookId: string) => call<unknown>("DELETE", `/webhook/${id(webhookId)}`),
  };
}
export type ClickupClient = ReturnType<typeof createClickupClient>;

/** Whether a webhook request is ClickUp's (hex HMAC-SHA256 of the body under the webhook's secret). */
export function verifyClickupWebhook(
  secret: string,
  rawBody: string,
  signature: string | undefined,
): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(signature, "hex"), expected);
}
