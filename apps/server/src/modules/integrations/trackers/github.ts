/**
 * GitHub as a tracker: a repository (under its owner's account) where cards are issues, closed when
 * resolved and reopened when reopened; a repository webhook (`issues` events, its own secret) brings
 * GitHub's closes and reopens back. An issue's id is `owner/repo#number`, a hook's `owner/repo/id`.
 * GitHub's REST API cannot delete an issue (only an admin can, on the website): "delete" labels it
 * `deleted in Redline` and closes it as not planned; that close is not read back as a resolve.
 */
import { randomBytes } from "node:crypto";
import type { TrackerContainer } from "@redline/shared";
import {
  createGithubClient,
  exchangeGithubCode,
  type GithubConfig,
  GithubError,
  githubAuthorizeUrl,
  issueId,
  parseIssueId,
  verifyGithubWebhook,
} from "../../../integrations/github/index.ts";
import type { InboundChange, Tracker } from "./tracker.ts";

export const DELETED_LABEL = "deleted in Redline";

interface IssuesEvent {
  action?: string;
  issue?: {
    number?: number;
    updated_at?: string;
    closed_at?: string | null;
    labels?: { name?: string }[];
  };
  repository?: { full_name?: string };
}

const issueOf = (id: string) => {
  const ref = parseIssueId(id);
  // A card id that is not an issue's is GitHub's 404: the card is gone as far as anyone can tell.
  if (!ref) throw new GithubError(404, `Not a GitHub issue: ${id}`);
  return ref;
};

export function hookOf(id: string) {
  const match = /^([^/\s]+)\/([^/\s]+)\/([0-9]+)$/.exec(id);
  if (!match) throw new GithubError(404, `Not a GitHub webhook: ${id}`);
  return { repo: { owner: match[1]!, repo: match[2]! }, hookId: Number(match[3]) };
}

/** The events the merge gate hears from the repository's webhook. */
export const GATE_EVENTS = ["pull_request", "deployment_status"] as const;

/** What the merge gate reads from a (verified) delivery: a pull request's head commit, or a commit deployed. */
export type GateEvent =
  | { kind: "pull"; repo: string; number: number; sha: string; at: Date }
  | { kind: "deployment"; repo: string; sha: string; url: string; at: Date };

interface PullRequestEvent {
  action?: string;
  number?: number;
  pull_request?: { number?: number; state?: string; updated_at?: string; head?: { sha?: string } };
  repository?: { full_name?: string };
}
interface DeploymentStatusEvent {
  deployment_status?: {
    state?: string;
    environment_url?: string | null;
    target_url?: string | null;
    updated_at?: string;
  };
  deployment?: { sha?: string; payload?: { web_url?: unknown } };
  repository?: { full_name?: string };
}

const SHA = /^[0-9a-f]{40}$/i;

/**
 * A `pull_request` (opened, reopened, a new head pushed) or `deployment_status` (a successful deployment
 * with its environment URL — the preview) delivery as the merge gate reads it; null for any other.
 */
export function readGateEvent(
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
): GateEvent | null {
  const event = header(headers["x-github-event"]);
  if (event === "pull_request") {
    const body = JSON.parse(rawBody) as PullRequestEvent;
    const pull = body.pull_request;
    const sha = pull?.head?.sha ?? "";
    const number = pull?.number ?? body.number;
    if (
      !["opened", "reopened", "synchronize", "edited", "ready_for_review"].includes(body.action ?? "") ||
      pull?.state !== "open" ||
      !SHA.test(sha) ||
      !number ||
      !body.repository?.full_name
    )
      return null;
    return {
      kind: "pull",
      repo: body.repository.full_name,
      number,
      sha: sha.toLowerCase(),
      at: new Date(pull.updated_at ?? Number.NaN),
    };
  }
  if (event === "deployment_status") {
    const body = JSON.parse(rawBody) as DeploymentStatusEvent;
    const status = body.deployment_status;
    const sha = body.deployment?.sha ?? "";
    const webUrl = body.deployment?.payload?.web_url;
    const url = status?.environment_url || status?.target_url || (typeof webUrl === "string" ? webUrl : null);
    if (status?.state !== "success" || !url || !SHA.test(sha) || !body.repository?.full_name) return null;
    return {
      kind: "deployment",
      repo: body.repository.full_name,
      sha: sha.toLowerCase(),
      url,
      at: new Date(status.updated_at ?? Number.NaN),
    };
  }
  return null;
}

const header = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

export function githubTracker(config: GithubConfig): Tracker {
  const client = (token: string) => createGithubClient(config, token);
  return {
    type: "github",
    authorizeUrl: ({ returnUrl, state }) => githubAuthorizeUrl(config, returnUrl, state),
    async connect({ code }) {
      if (!code) throw new Error("GitHub hands back a code.");
      const token = await exchangeGithubCode(config, code);
      const user = await client(token).user();
      return { token, account: user.name || user.login };
    },
    async destinations(token) {
      const repos = await client(token).repositories();
      const owners = new Map<string, TrackerContainer>();
      for (const repo of repos) {
        const owner = repo.owner.login;
        if (!owners.has(owner)) owners.set(owner, { id: owner, name: owner, lists: [] });
        owners.get(owner)!.lists.push({ id: repo.name, name: repo.name });
      }
      return [...owners.values()];
    },
    async createCard(token, destination, card) {
      const repo = { owner: destination.containerId, repo: destination.listId };
      const issue = await client(token).createIssue(repo, { title: card.title, body: card.description });
      return { id: issueId({ ...repo, issueNumber: issue.number }), url: issue.html_url };
    },
    async setClosed(token, externalId, closed) {
      await client(token).setIssueState(
        issueOf(externalId),
        closed ? "closed" : "open",
        closed ? "completed" : undefined,
      );
    },
    async deleteCard(token, externalId) {
      const github = client(token);
      const ref = issueOf(externalId);
      await github.addLabels(ref, [DELETED_LABEL]);
      await github.setIssueState(ref, "closed", "not_planned");
    },
    async watch(token, destination, callbackUrl) {
      const repo = { owner: destination.containerId, repo: destination.listId };
      // GitHub signs with the secret we give it: one per hook, kept sealed with the token.
      const secret = randomBytes(32).toString("hex");
      // Issues for the cards; pull requests and deployments for the merge gate (github.gate.ts).
      const hook = await client(token).createWebhook(repo, {
        url: callbackUrl,
        secret,
        events: ["issues", ...GATE_EVENTS],
      });
      return { hookId: `${repo.owner}/${repo.repo}/${hook.id}`, hookSecret: secret };
    },
    async unwatch(token, hookId) {
      const { repo, hookId: id } = hookOf(hookId);
      await client(token).deleteWebhook(repo, id);
    },
    async verifyInbound({ rawBody, headers }, secrets) {
      if (
        !secrets.hookSecret ||
        !(await verifyGithubWebhook(secrets.hookSecret, rawBody, header(headers["x-hub-signature-256"])))
      )
        return null;
      // `ping` (sent when a hook is made) and any other event tell of no issue.
      if (header(headers["x-github-event"]) !== "issues") return [];
      const body = JSON.parse(rawBody) as IssuesEvent;
      const { issue } = body;
      const [owner, repo] = (body.repository?.full_name ?? "").split("/");
      if (
        (body.action !== "closed" && body.action !== "reopened") ||
        !issue?.number ||
        !owner ||
        !repo ||
        // Our own "delete" closes the issue: the thread does not resolve for it.
        issue.labels?.some((label) => label.name === DELETED_LABEL)
      )
        return [];
      const closed = body.action === "closed";
      const changes: InboundChange[] = [
        {
          externalId: issueId({ owner, repo, issueNumber: issue.number }),
          closed,
          at: new Date((closed ? issue.closed_at : null) ?? issue.updated_at ?? Number.NaN),
        },
      ];
      return changes;
    },
  };
}
