/**
 * Jira Cloud (https://developer.atlassian.com/cloud/jira/platform/), at configurable bases (JIRA_API_URL,
 * JIRA_AUTHORIZE_URL, JIRA_TOKEN_URL; the embedded stand-in outside production).
 *
 * OAuth 2.0 (3LO): the browser goes to `https://auth.atlassian.com/authorize?audience=api.atlassian.com&
 * client_id…&scope…&redirect_uri…&state…&response_type=code&prompt=consent` and returns with `?code=…`;
 * `POST https://auth.atlassian.com/oauth/token` (JSON) exchanges it (`authorization_code`) or a refresh token
 * (`refresh_token`) for an access token that lasts `expires_in` seconds (an hour). Refresh tokens rotate:
 * each refresh answers a new one and the old one stops working, so the new one must be kept (the
 * tracker's `refresh`, through withTrackerToken, saves it under the integration's row lock). The sites a
 * token reaches come from `GET https://api.atlassian.com/oauth/token/accessible-resources`; a site's REST
 * API is `https://api.atlassian.com/ex/jira/{cloudId}/rest/api/3/…`, called here through jira.js's
 * Version3Client (the kept SDK) with the bearer token and that host.
 *
 * Webhooks: an OAuth app registers dynamic webhooks by REST (`POST /rest/api/3/webhook`, a JQL filter and
 * events), which expire after 30 days unless refreshed (`PUT /rest/api/3/webhook/refresh`) and are removed
 * by `DELETE /rest/api/3/webhook`. Deliveries carry no body signature; Atlassian documents ("Webhooks
 * authentication for OAuth 2.0 apps") an `Authorization: Bearer` JWT signed (HS256) with the app's client
 * secret, which is checked (`verifyJiraWebhookToken`); the callback URL also holds an unguessable
 * per-integration secret, and what a delivery says is read again from the API.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { HttpException, Version3Client } from "jira.js";
import {
  callService,
  type OAuthGrant,
  oauthTokenGrant,
  SERVICE_TIMEOUT_MS,
  ServiceError,
  withQuery,
} from "../../lib/service-call.ts";

export interface JiraConfig {
  /** The API gateway, e.g. https://api.atlassian.com (accessible resources, and /ex/jira/{cloudId}). */
  apiUrl: string;
  /** The authorize page, e.g. https://auth.atlassian.com/authorize. */
  authorizeUrl: string;
  /** The token endpoint, e.g. https://auth.atlassian.com/oauth/token. */
  tokenUrl: string;
  /** The return route registered with the app (the token exchange names it again). */
  redirectUri: string;
  clientId: string;
  clientSecret: string;
}

/** What Redline asks of a Jira account: its issues (read, write), its webhooks, and a refresh token. */
export const JIRA_SCOPES = ["read:jira-work", "write:jira-work", "manage:jira-webhook", "offline_access"];

/** A call Jira refused or could not answer (lib/service-call.ts). */
export class JiraError extends ServiceError {}

/** Its refresh token rotates: every grant answers a new one (null only if offline_access was not granted). */
export type JiraGrant = OAuthGrant;

/** A Jira site the token reaches. */
export interface JiraSite {
  id: string;
  name: string;
  url: string;
  scopes: string[];
}

export type StatusCategory = "new" | "indeterminate" | "done";

const SERVICE = { name: "Jira", error: JiraError };
const request = <T>(url: string, init: RequestInit) => callService<T>(SERVICE, url, init);

export const jiraAuthorizeUrl = (config: JiraConfig, state: string): string =>
  withQuery(config.authorizeUrl, {
    audience: "api.atlassian.com",
    client_id: config.clientId,
    scope: JIRA_SCOPES.join(" "),
    redirect_uri: config.redirectUri,
    state,
    response_type: "code",
    prompt: "consent",
  });

const tokenGrant = (config: JiraConfig, fields: Record<string, string>): Promise<JiraGrant> =>
  oauthTokenGrant(SERVICE, config.tokenUrl, "json", {
    client_id: config.clientId,
    client_secret: config.clientSecret,
    ...fields,
  });

export const exchangeJiraCode = (config: JiraConfig, code: string) =>
  tokenGrant(config, { grant_type: "authorization_code", code, redirect_uri: config.redirectUri });

/** A new access token and a new refresh token (the old one stops working); a revoked one answers 403/401. */
export const refreshJiraToken = (config: JiraConfig, refreshToken: string) =>
  tokenGrant(config, { grant_type: "refresh_token", refresh_token: refreshToken });

/** The Jira sites the token may use (those granted the Jira scopes). */
export async function jiraSites(config: JiraConfig, token: string): Promise<JiraSite[]> {
  const sites = await request<JiraSite[]>(`${config.apiUrl}/oauth/token/accessible-resources`, {
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
  });
  return sites.filter((site) => site.scopes?.includes("write:jira-work"));
}

/** jira.js's failure (HttpException with a status, or axios's own when nothing answered) as a JiraError. */
function failureOf(error: unknown): JiraError {
  if (error instanceof JiraError) return error;
  if (error instanceof HttpException)
    return new JiraError(error.status || null, `Jira answered ${error.status}: ${error.message}`);
  return new JiraError(null, `Jira was not reached: ${(error as Error).message}`);
}

/** Plain text as Atlassian Document Format (a paragraph per line; Jira's v3 API takes no plain text). */
export function toAdf(text: string) {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return {
    type: "doc",
    version: 1,
    content: lines.map((line) => ({ type: "paragraph", content: [{ type: "text", text: line }] })),
  };
}

const PAGE_SIZE = 50;
const MAX_PAGES = 20;

/** A site's REST API (v3) through jira.js, as the token's user. */
export function createJiraClient(config: JiraConfig, token: string, cloudId: string) {
  const client = new Version3Client({
    host: `${config.apiUrl}/ex/jira/${encodeURIComponent(cloudId)}`,
    authentication: { oauth2: { accessToken: token } },
    baseRequestConfig: { timeout: SERVICE_TIMEOUT_MS },
  });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw failureOf(error);
    }
  };
  return {
    myself: () => call(() => client.myself.getCurrentUser()),
    /** The projects the user may see, with their issue types (paged, bounded). */
    projects: () =>
      call(async () => {
        const projects: { id: string; name: string; issueTypes: { id: string; name: string }[] }[] = [];
        for (let page = 0; page < MAX_PAGES; page += 1) {
          const answer = await client.projects.searchProjects({
            startAt: page * PAGE_SIZE,
            maxResults: PAGE_SIZE,
            expand: "issueTypes",
          });
          for (const project of answer.values ?? [])
            projects.push({
              id: String(project.id),
              name: project.name ?? String(project.key),
              issueTypes: (project.issueTypes ?? [])
                .filter((type) => !type.subtask && type.id)
                .map((type) => ({ id: String(type.id), name: type.name ?? String(type.id) })),
            });
          if (answer.isLast !== false) break;
        }
        return projects;
      }),
    createIssue: (input: { projectId: string; issueTypeId: string; summary: string; description: string }) =>
      call(() =>
        client.issues.createIssue({
          fields: {
            project: { id: input.projectId },
            issuetype: { id: input.issueTypeId },
            summary: input.summary,
            description: toAdf(input.description),
          },
        } as Parameters<typeof client.issues.createIssue>[0]),
      ),
    /** The issue's status category: new (To Do), indeterminate (In Progress) or done. */
    statusCategory: (issueId: string) =>
      call(async () => {
        const issue = await client.issues.getIssue({ issueIdOrKey: issueId, fields: ["status"] });
        return (issue.fields?.status?.statusCategory?.key ?? "new") as StatusCategory;
      }),
    transitions: (issueId: string) =>
      call(async () => {
        const answer = await client.issues.getTransitions({ issueIdOrKey: issueId });
        return (answer.transitions ?? []).map((transition) => ({
          id: String(transition.id),
          to: (transition.to?.statusCategory?.key ?? "new") as StatusCategory,
        }));
      }),
    transition: (issueId: string, transitionId: string) =>
      call(() => client.issues.doTransition({ issueIdOrKey: issueId, transition: { id: transitionId } })),
    deleteIssue: (issueId: string) => call(() => client.issues.deleteIssue({ issueIdOrKey: issueId })),
    registerWebhook: (input: { url: string; jqlFilter: string; events: string[] }) =>
      call(async () => {
        const answer = await client.webhooks.registerDynamicWebhooks({
          url: input.url,
          webhooks: [{ jqlFilter: input.jqlFilter, events: input.events }],
        } as Parameters<typeof client.webhooks.registerDynamicWebhooks>[0]);
        const [result] = answer.webhookRegistrationResult ?? [];
        if (!result?.createdWebhookId)
          throw new JiraError(400, `Jira did not register the webhook: ${(result?.errors ?? []).join("; ")}`);
        return result.createdWebhookId;
      }),
    refreshWebhooks: (webhookIds: number[]) => call(() => client.webhooks.refreshWebhooks({ webhookIds })),
    deleteWebhooks: (webhookIds: number[]) => call(() => client.webhooks.deleteWebhookById({ webhookIds })),
  };
}
export type JiraClient = ReturnType<typeof createJiraClient>;

/** What a dynamic webhook delivers (read for the issue it names; its state is read again from the API). */
export interface JiraWebhookEvent {
  timestamp?: number;
  webhookEvent?: string;
  issue?: { id?: string; key?: string };
  changelog?: { items?: { field?: string; fieldId?: string }[] };
}

/** Leeway for the clocks of Jira and this server when reading a webhook token's `exp`/`nbf`. */
const CLOCK_LEEWAY_S = 60;

/**
 * Whether a delivery's `Authorization: Bearer <JWT>` is Jira's: HS256 under the app's client secret, not
 * expired (when it says when it expires).
 */
export function verifyJiraWebhookToken(
  clientSecret: string,
  authorization: string | undefined,
  now = Date.now(),
): boolean {
  const token = /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!token) return false;
  const [, header, payload, signature] = token as unknown as [string, string, string, string];
  let claims: { alg?: string; exp?: unknown; nbf?: unknown };
  try {
    const head = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: string };
    if (head.alg !== "HS256") return false;
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return false;
  }
  const expected = createHmac("sha256", clientSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const seconds = now / 1000;
  if (typeof claims.exp === "number" && claims.exp + CLOCK_LEEWAY_S < seconds) return false;
  if (typeof claims.nbf === "number" && claims.nbf - CLOCK_LEEWAY_S > seconds) return false;
  return true;
}
