/**
 * GitHub's REST API (https://docs.github.com/rest) through its kept SDK, `@octokit/rest`, at a configurable
 * origin (GITHUB_API_URL; the embedded stand-in outside production). OAuth app flow: the browser goes to
 * `${authorizeUrl}?client_id…&redirect_uri…&scope=repo&state…` and returns with `?code=…`, exchanged at
 * `POST ${tokenUrl}` (Accept: application/json → `access_token`, `token_type`, `scope`; a refused code is a
 * 200 with `error`). Repository webhooks are signed per hook: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256
 * of the body under the hook's secret>`, checked with `@octokit/webhooks-methods`.
 */
import { Octokit, type RestEndpointMethodTypes } from "@octokit/rest";
import { verify } from "@octokit/webhooks-methods";
import { callService, SERVICE_TIMEOUT_MS, ServiceError, withQuery } from "../../lib/service-call.ts";

export interface GithubConfig {
  /** API origin, e.g. https://api.github.com. */
  apiUrl: string;
  /** The authorize page, e.g. https://github.com/login/oauth/authorize. */
  authorizeUrl: string;
  /** Where a code is exchanged, e.g. https://github.com/login/oauth/access_token. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** A call GitHub refused or could not answer (lib/service-call.ts). */
export class GithubError extends ServiceError {}

/** An issue as the tracker names it: its repository and number. */
export interface IssueRef {
  owner: string;
  repo: string;
  issueNumber: number;
}

/** "owner/repo#12" ⇄ its parts. */
export const issueId = (ref: IssueRef) => `${ref.owner}/${ref.repo}#${ref.issueNumber}`;
export function parseIssueId(id: string): IssueRef | null {
  const match = /^([^/#\s]+)\/([^/#\s]+)#([1-9][0-9]*)$/.exec(id);
  if (!match) return null;
  return { owner: match[1]!, repo: match[2]!, issueNumber: Number(match[3]) };
}

type Repository = RestEndpointMethodTypes["repos"]["listForAuthenticatedUser"]["response"]["data"][number];

export const githubAuthorizeUrl = (config: GithubConfig, redirectUri: string, state: string): string =>
  withQuery(config.authorizeUrl, {
    client_id: config.clientId,
    redirect_uri: redirectUri,
    // Issues and repository webhooks in private repositories too (GitHub has no narrower OAuth scope).
    scope: "repo",
    state,
    allow_signup: "false",
  });

export async function exchangeGithubCode(config: GithubConfig, code: string): Promise<string> {
  const body = await callService<{ access_token?: string; error?: string; error_description?: string }>(
    { name: "GitHub", error: GithubError },
    config.tokenUrl,
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ client_id: config.clientId, client_secret: config.clientSecret, code }),
    },
  );
  // GitHub answers a used or wrong code with 200 and an `error` (bad_verification_code).
  if (!body.access_token)
    throw new GithubError(
      400,
      `GitHub refused the code: ${body.error_description ?? body.error ?? "no token"}`,
    );
  return body.access_token;
}

/** An Octokit failure as a GithubError, its status kept for the retry rule. */
function githubError(error: unknown): GithubError {
  const status = (error as { status?: unknown }).status;
  // Octokit reports a fetch that never reached GitHub (refused, timed out) as a 500: retried, as it should be.
  return new GithubError(
    typeof status === "number" ? status : null,
    `GitHub answered ${typeof status === "number" ? status : "nothing"}: ${(error as Error).message.slice(0, 200)}`,
  );
}

async function ask<T>(call: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await call()).data;
  } catch (error) {
    throw githubError(error);
  }
}

export function createGithubClient(config: GithubConfig, token: string) {
  const octokit = new Octokit({
    auth: token,
    baseUrl: config.apiUrl,
    userAgent: "Redline",
    request: {
      fetch: (url: string, init: RequestInit) =>
        fetch(url, { ...init, signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS) }),
    },
    // A failed call reaches the caller as a GithubError (retried or shown there); Octokit need not log it too.
    log: { debug: () => undefined, info: () => undefined, warn: console.warn, error: () => undefined },
  });
  return {
    user: () => ask(() => octokit.rest.users.getAuthenticated()),
    /** Every repository the user may push to (owned, collaborating, or through an organization). */
    async repositories() {
      try {
        const repos: Repository[] = await octokit.paginate(octokit.rest.repos.listForAuthenticatedUser, {
          per_page: 100,
          sort: "full_name",
        });
        return repos.filter((repo) => repo.permissions?.push && !repo.archived);
      } catch (error) {
        throw githubError(error);
      }
    },
    createIssue: (repo: { owner: string; repo: string }, input: { title: string; body: string }) =>
      ask(() => octokit.rest.issues.create({ ...repo, ...input })),
    setIssueState: (ref: IssueRef, state: "open" | "closed", reason?: "completed" | "not_planned") =>
      ask(() =>
        octokit.rest.issues.update({
          owner: ref.owner,
          repo: ref.repo,
          issue_number: ref.issueNumber,
          state,
          ...(reason && { state_reason: reason }),
        }),
      ),
    addLabels: (ref: IssueRef, labels: string[]) =>
      ask(() =>
        octokit.rest.issues.addLabels({
          owner: ref.owner,
          repo: ref.repo,
          issue_number: ref.issueNumber,
          labels,
        }),
      ),
    createWebhook: (
      repo: { owner: string; repo: string },
      input: { url: string; secret: string; events: string[] },
    ) =>
      ask(() =>
        octokit.rest.repos.createWebhook({
          ...repo,
          name: "web",
          active: true,
          events: input.events,
          config: { url: input.url, content_type: "json", secret: input.secret, insecure_ssl: "0" },
        }),
      ),
    /** Adds events to a repository webhook (one made before it heard them). */
    addWebhookEvents: (repo: { owner: string; repo: string }, hookId: number, events: string[]) =>
      ask(() => octokit.rest.repos.updateWebhook({ ...repo, hook_id: hookId, add_events: events })),
    /** A commit status (https://docs.github.com/rest/commits/statuses): shown on each pull request of the commit. */
    createCommitStatus: (
      repo: { owner: string; repo: string },
      sha: string,
      status: {
        state: "pending" | "success" | "failure" | "error";
        context: string;
        description: string;
        targetUrl: string;
      },
    ) =>
      ask(() =>
        octokit.rest.repos.createCommitStatus({
          ...repo,
          sha,
          state: status.state,
          context: status.context,
          description: status.description,
          target_url: status.targetUrl,
        }),
      ),
    deleteWebhook: (repo: { owner: string; repo: string }, hookId: number) =>
      ask(() => octokit.rest.repos.deleteWebhook({ ...repo, hook_id: hookId })),
  };
}
export type GithubClient = ReturnType<typeof createGithubClient>;

/** Whether a webhook request is GitHub's: `sha256=` + hex HMAC-SHA256 of the raw body under the hook's secret. */
export async function verifyGithubWebhook(
  secret: string,
  rawBody: string,
  signature: string | undefined,
): Promise<boolean> {
  if (!secret || !rawBody || !signature) return false;
  return verify(secret, rawBody, signature);
}
