/**
 * The embedded GitHub stand-in (development and tests only; no GITHUB_CLIENT_ID): an OAuth app's
 * authorize page (`/login/oauth/authorize`, back to the redirect URI with `code` and `state`) and token
 * endpoint (`POST /login/oauth/access_token`, JSON when asked), and under `/api/v3` (GitHub Enterprise's
 * API path) the REST calls the app makes: the user, their repositories with `permissions`, issues
 * (create, read, close/reopen with `state_reason`, labels) and repository webhooks. A hook hears each
 * issue closed or reopened as GitHub sends it (`X-GitHub-Event: issues`, `X-GitHub-Delivery`, signed
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body under the hook's secret>`). An issue has a
 * page (its `html_url`) with "Close issue"/"Reopen issue", as a person does it on github.com. Errors are
 * GitHub's `{ message, documentation_url }`. One page of repositories (no Link header), no `ping` when a
 * hook is made. Everything lives in memory.
 *
 * Pull requests and previews (the merge gate): commit statuses (`POST …/statuses/{sha}`, listed by
 * `GET …/commits/{ref}/statuses`), a pull request read by `GET …/pulls/{number}`, and a repository's page
 * (`/{owner}/{repo}/pulls`) where a person opens a pull request with a preview URL — the stand-in then sends
 * `pull_request` (opened) and `deployment_status` (success, `environment_url` the preview) to the hooks
 * subscribed, signed as above — and sees each one's checks. Tests do the same through `POST /_pulls` and
 * `POST /_deployments` (a deployment of any commit).
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { escapeHtml, layout } from "../stripe/checkout-page.ts";
import { authedHandlers } from "../tracker-api.ts";
import { Faults } from "../tracker-faults.ts";
import {
  acceptForms,
  appAndReturnUrl,
  authorizeRoutes,
  CodeStore,
  isKnownClient,
  pageStyle,
  errorPage as servicePage,
  type TrackerAppOptions,
  testControls,
  tokenParams,
  withState,
} from "../tracker-oauth.ts";
import { itemPageRoutes, toggleForm } from "../tracker-pages.ts";

export type GithubDevOptions = TrackerAppOptions;

interface User {
  id: number;
  login: string;
  name: string;
}
interface Repo {
  id: number;
  owner: string;
  name: string;
  /** Who may push (and administer); everyone else only reads. */
  writers: Set<number>;
  nextIssue: number;
}
interface Issue {
  id: number;
  repo: Repo;
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "reopened" | null;
  labels: string[];
  userId: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}
interface Pull {
  id: number;
  repo: Repo;
  number: number;
  title: string;
  headSha: string;
  headRef: string;
  previewUrl: string | null;
  userId: number;
  createdAt: string;
}
interface CommitStatus {
  id: number;
  state: "error" | "failure" | "pending" | "success";
  context: string;
  description: string | null;
  targetUrl: string | null;
  creatorId: number;
  createdAt: string;
}
interface Hook {
  id: number;
  repo: Repo;
  url: string;
  secret: string | null;
  events: string[];
  active: boolean;
  createdAt: string;
}

const DOCS = "https://docs.github.com/rest";
/** A shared organization everyone reads but nobody may push to: its repository is never a destination. */
const READ_ONLY_ORG = "redline-demo";

export function githubSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** GitHub's timestamps: ISO 8601 to the second. */
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

const authorizeQuery = z.object({
  client_id: z.string().max(200),
  redirect_uri: z.string().max(2000),
  scope: z.string().max(500).optional(),
  state: z.string().max(2000).optional(),
  allow_signup: z.string().max(10).optional(),
});

const PAGE_STYLE = pageStyle("#1f883d");
const errorPage = servicePage("GitHub");

export async function githubDevRoutes(app: FastifyInstance, options: GithubDevOptions) {
  const { prefix } = options;
  const users = new Map<number, User>();
  const tokens = new Map<string, number>();
  const codes = new CodeStore<{ userId: number; scope: string }>(() => randomBytes(10).toString("hex"));
  const repos = new Map<string, Repo>();
  const issues = new Map<string, Issue>();
  const hooks = new Map<number, Hook>();
  const pulls = new Map<string, Pull>();
  /** Each commit's statuses, newest first, by `owner/repo@sha`. */
  const statuses = new Map<string, CommitStatus[]>();
  const faults = new Faults();
  let serial = 0;
  const nextId = () => {
    serial += 1;
    return 10_000_000 + serial;
  };

  acceptForms(app);

  const apiError = (reply: FastifyReply, status: number, message: string, extra: object = {}) =>
    reply.status(status).send({ message, documentation_url: DOCS, ...extra });

  const userOf = (request: FastifyRequest, reply: FastifyReply): User | null => {
    if (
      faults.answer(reply, (status) => ({
        message: status === 429 ? "API rate limit exceeded" : "Server Error",
        documentation_url: DOCS,
      }))
    )
      return null;
    const [scheme, token] = (request.headers.authorization ?? "").split(" ");
    const userId = /^(token|bearer)$/i.test(scheme ?? "") ? tokens.get(token ?? "") : undefined;
    const user = userId === undefined ? undefined : users.get(userId);
    if (!user) {
      apiError(reply, 401, "Bad credentials");
      return null;
    }
    return user;
  };

  const repoKey = (owner: string, name: string) => `${owner}/${name}`.toLowerCase();
  const addRepo = (owner: string, name: string, writers: number[]) => {
    const repo: Repo = { id: nextId(), owner, name, writers: new Set(writers), nextIssue: 1 };
    repos.set(repoKey(owner, name), repo);
    return repo;
  };
  addRepo(READ_ONLY_ORG, "docs", []);

  /** A new user owns two repositories, as a fresh test account would. */
  const newUser = (login: string): User => {
    const user = { id: nextId(), login, name: login };
    users.set(user.id, user);
    for (const name of ["website", "feedback"]) addRepo(login, name, [user.id]);
    return user;
  };

  /** The repository in the path, when the user may see it (GitHub answers 404 for one they may not). */
  const repoOf = (request: FastifyRequest) => {
    const { owner, repo } = request.params as { owner: string; repo: string };
    return repos.get(repoKey(owner, repo)) ?? null;
  };
  const issueKey = (repo: Repo, number: number) => `${repoKey(repo.owner, repo.name)}#${number}`;
  const issueOf = (request: FastifyRequest) => {
    const repo = repoOf(request);
    const number = Number((request.params as { number: string }).number);
    return repo && Number.isInteger(number) ? (issues.get(issueKey(repo, number)) ?? null) : null;
  };

  const api = `${options.appUrl}${prefix}/api/v3`;
  const presentUser = (id: number) => {
    const user = users.get(id);
    return { login: user?.login ?? "ghost", id, type: "User" };
  };
  const presentRepo = (repo: Repo, viewer?: User) => ({
    id: repo.id,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner, type: repo.owner === READ_ONLY_ORG ? "Organization" : "User" },
    private: false,
    archived: false,
    html_url: `${options.appUrl}${prefix}/${repo.owner}/${repo.name}`,
    url: `${api}/repos/${repo.owner}/${repo.name}`,
    ...(viewer && {
      permissions: {
        admin: repo.writers.has(viewer.id),
        maintain: repo.writers.has(viewer.id),
        push: repo.writers.has(viewer.id),
        triage: repo.writers.has(viewer.id),
        pull: true,
      },
    }),
  });
  const htmlUrl = (issue: Issue) =>
    `${options.appUrl}${prefix}/${issue.repo.owner}/${issue.repo.name}/issues/${issue.number}`;
  const presentIssue = (issue: Issue) => ({
    id: issue.id,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    state_reason: issue.stateReason,
    labels: issue.labels.map((name) => ({ name, color: "ededed", default: false })),
    user: presentUser(issue.userId),
    html_url: htmlUrl(issue),
    url: `${api}/repos/${issue.repo.owner}/${issue.repo.name}/issues/${issue.number}`,
    repository_url: `${api}/repos/${issue.repo.owner}/${issue.repo.name}`,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
  });
  const presentHook = (hook: Hook) => ({
    type: "Repository",
    id: hook.id,
    name: "web",
    active: hook.active,
    events: hook.events,
    config: {
      url: hook.url,
      content_type: "json",
      insecure_ssl: "0",
      ...(hook.secret && { secret: "********" }),
    },
    created_at: hook.createdAt,
    updated_at: hook.createdAt,
    url: `${api}/repos/${hook.repo.owner}/${hook.repo.name}/hooks/${hook.id}`,
  });

  /** Closes or reopens, and tells the repository's hooks (each delivery signed with its hook's secret). */
  const setState = async (
    issue: Issue,
    state: "open" | "closed",
    reason: string | undefined,
    senderId: number,
  ) => {
    if (issue.state === state) return;
    issue.state = state;
    issue.updatedAt = now();
    issue.closedAt = state === "closed" ? issue.updatedAt : null;
    issue.stateReason =
      state === "closed" ? (reason === "not_planned" ? "not_planned" : "completed") : "reopened";
    await deliver(issue.repo, "issues", {
      action: state === "closed" ? "closed" : "reopened",
      issue: presentIssue(issue),
      repository: presentRepo(issue.repo),
      sender: presentUser(senderId),
    });
  };

  /** Sends an event to the repository's hooks that subscribe to it, each delivery signed with its hook's secret. */
  async function deliver(repo: Repo, event: string, payload: object) {
    const targets = [...hooks.values()].filter(
      (hook) => hook.repo === repo && hook.active && hook.events.some((e) => e === "*" || e === event),
    );
    await Promise.all(
      targets.map(async (hook) => {
        const body = JSON.stringify(payload);
        await fetch(hook.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "GitHub-Hookshot/redline-stand-in",
            "x-github-event": event,
            "x-github-delivery": randomUUID(),
            "x-github-hook-id": String(hook.id),
            ...(hook.secret && { "x-hub-signature-256": githubSignature(hook.secret, body) }),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined);
      }),
    );
  }

  const pullKey = (repo: Repo, number: number) => `${repoKey(repo.owner, repo.name)}#${number}`;
  const pullOf = (request: FastifyRequest) => {
    const repo = repoOf(request);
    return (repo && pulls.get(pullKey(repo, Number((request.params as { number: string }).number)))) ?? null;
  };
  /** The API's handlers: for the token's user, and for what the path names (GitHub's 404 when absent). */
  const authed = authedHandlers(userOf);
  const notFound = (reply: FastifyReply) => apiError(reply, 404, "Not Found");
  const withRepo = authed.about(repoOf, notFound);
  /**
   * A repository the user may push to and administer: only they see its hooks and set its statuses;
   * GitHub answers anyone else 404.
   */
  const adminRepoOf = (request: FastifyRequest, user: User) => {
    const repo = repoOf(request);
    return repo?.writers.has(user.id) ? repo : null;
  };
  const withAdminRepo = authed.about(adminRepoOf, notFound);
  const withHook = authed.about((request, user) => {
    const hook = hooks.get(Number((request.params as { hookId: string }).hookId));
    return hook && hook.repo === adminRepoOf(request, user) ? hook : null;
  }, notFound);
  const withIssue = authed.about(issueOf, notFound);
  const withPull = authed.about(pullOf, notFound);
  const statusKey = (repo: Repo, sha: string) => `${repoKey(repo.owner, repo.name)}@${sha.toLowerCase()}`;
  const pullHtmlUrl = (pull: Pull) =>
    `${options.appUrl}${prefix}/${pull.repo.owner}/${pull.repo.name}/pull/${pull.number}`;
  const presentPull = (pull: Pull) => ({
    id: pull.id,
    number: pull.number,
    state: "open",
    title: pull.title,
    user: presentUser(pull.userId),
    html_url: pullHtmlUrl(pull),
    url: `${api}/repos/${pull.repo.owner}/${pull.repo.name}/pulls/${pull.number}`,
    head: { ref: pull.headRef, sha: pull.headSha, repo: presentRepo(pull.repo) },
    base: { ref: "main", repo: presentRepo(pull.repo) },
    created_at: pull.createdAt,
    updated_at: pull.createdAt,
  });
  const presentStatus = (status: CommitStatus) => ({
    id: status.id,
    state: status.state,
    context: status.context,
    description: status.description,
    target_url: status.targetUrl,
    creator: presentUser(status.creatorId),
    created_at: status.createdAt,
    updated_at: status.createdAt,
  });
  /** The latest status of each context on a commit, as GitHub's checks box shows them. */
  const latestStatuses = (repo: Repo, sha: string) => {
    const seen = new Set<string>();
    return (statuses.get(statusKey(repo, sha)) ?? []).filter((status) => {
      if (seen.has(status.context)) return false;
      seen.add(status.context);
      return true;
    });
  };

  /** A deployment of a commit that succeeded at `url`, told as GitHub tells it (`deployment_status`). */
  const deployed = async (repo: Repo, sha: string, url: string, ref: string) => {
    const at = now();
    const sender = presentUser([...repo.writers][0] ?? 0);
    await deliver(repo, "deployment_status", {
      action: "created",
      deployment_status: {
        id: nextId(),
        state: "success",
        environment: "Preview",
        environment_url: url,
        target_url: url,
        creator: sender,
        created_at: at,
        updated_at: at,
      },
      deployment: {
        id: nextId(),
        sha,
        ref,
        task: "deploy",
        environment: "Preview",
        creator: sender,
        created_at: at,
        updated_at: at,
      },
      repository: presentRepo(repo),
      sender,
    });
  };

  /** Opens a pull request (a new head commit) and tells the hooks; with a preview URL, its deployment too. */
  const openPull = async (repo: Repo, input: { title: string; previewUrl: string | null }) => {
    const userId = [...repo.writers][0] ?? 0;
    const pull: Pull = {
      id: nextId(),
      repo,
      // Issues and pull requests share their numbers.
      number: repo.nextIssue++,
      title: input.title,
      headSha: randomBytes(20).toString("hex"),
      headRef: `preview-${serial}`,
      previewUrl: input.previewUrl,
      userId,
      createdAt: now(),
    };
    pulls.set(pullKey(repo, pull.number), pull);
    await deliver(repo, "pull_request", {
      action: "opened",
      number: pull.number,
      pull_request: presentPull(pull),
      repository: presentRepo(repo),
      sender: presentUser(userId),
    });
    if (pull.previewUrl) await deployed(repo, pull.headSha, pull.previewUrl, pull.headRef);
    return pull;
  };

  authorizeRoutes(app, {
    path: "/login/oauth/authorize",
    prefix,
    service: "GitHub",
    query: authorizeQuery,
    problem: appAndReturnUrl(options.clientId, "Invalid client_id or redirect_uri."),
    malformed: "Invalid client_id or redirect_uri.",
    errorPage,
    page: (query, _hidden, form) =>
      layout(
        "Authorize application",
        `${PAGE_STYLE}<p class="eyebrow">GitHub · Redline stand-in</p><h1>Authorize Redline</h1>
<p>Redline wants to access your repositories (scope <code>${escapeHtml(query.scope ?? "")}</code>): read and write issues and repository webhooks.</p>
${form}`,
      ),
    nameField: "login",
    defaultName: "test-user",
    // GitHub's usernames: letters, digits and single hyphens, at most 39.
    validName: (login) =>
      /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/.test(login) &&
      login.toLowerCase() !== READ_ONLY_ORG,
    form: { label: "Your GitHub username", maxlength: 39, deny: "Cancel", allow: "Authorize" },
    deny: (back, query) => {
      withState(back, query);
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user has denied your application access.");
    },
    code: (query, login) => {
      const user =
        [...users.values()].find((u) => u.login.toLowerCase() === login.toLowerCase()) ?? newUser(login);
      return codes.issue({ userId: user.id, scope: query.scope ?? "" });
    },
  });

  app.post(
    "/login/oauth/access_token",
    route({ summary: "Exchange an authorization code for a token (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const params = tokenParams(request, true);
      // GitHub answers 200 with an `error` here, in the format the Accept header asks for.
      const answer = (body: Record<string, string>) =>
        (request.headers.accept ?? "").includes("application/json")
          ? reply.send(body)
          : reply.type("application/x-www-form-urlencoded").send(new URLSearchParams(body).toString());
      if (!isKnownClient(params, options))
        return answer({
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
        });
      const grant = codes.take(params.code);
      if (!grant)
        return answer({
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      const token = `gho_${randomBytes(18).toString("base64url").replace(/[-_]/g, "0")}`;
      tokens.set(token, grant.userId);
      return answer({ access_token: token, token_type: "bearer", scope: grant.scope });
    },
  );

  app.get(
    "/api/v3/user",
    route({ summary: "The authenticated user (embedded GitHub)", action: "public" }),
    authed(async (user) => {
      return {
        ...presentUser(user.id),
        name: user.name,
        html_url: `${options.appUrl}${prefix}/${user.login}`,
      };
    }),
  );

  app.get(
    "/api/v3/user/repos",
    route({ summary: "The authenticated user's repositories (embedded GitHub)", action: "public" }),
    authed(async (user) => {
      return (
        [...repos.values()]
          .filter(
            (repo) => repo.owner === user.login || repo.writers.has(user.id) || repo.owner === READ_ONLY_ORG,
          )
          // GitHub's default order for this list: by full name.
          .sort((a, b) => `${a.owner}/${a.name}`.localeCompare(`${b.owner}/${b.name}`))
          .map((repo) => presentRepo(repo, user))
      );
    }),
  );

  app.post(
    "/api/v3/repos/:owner/:repo/issues",
    route({ summary: "Create an issue (embedded GitHub)", action: "public" }),
    withRepo(async (repo, user, request, reply) => {
      if (!repo.writers.has(user.id))
        return apiError(reply, 403, "Must have push access to create an issue.");
      const body = z
        .object({ title: z.string().min(1).max(256), body: z.string().max(65536).nullish() })
        .safeParse(request.body);
      if (!body.success)
        return apiError(reply, 422, "Validation Failed", {
          errors: [{ resource: "Issue", code: "missing_field", field: "title" }],
        });
      const issue: Issue = {
        id: nextId(),
        repo,
        number: repo.nextIssue++,
        title: body.data.title,
        body: body.data.body ?? "",
        state: "open",
        stateReason: null,
        labels: [],
        userId: user.id,
        createdAt: now(),
        updatedAt: now(),
        closedAt: null,
      };
      issues.set(issueKey(repo, issue.number), issue);
      return reply.status(201).header("location", presentIssue(issue).url).send(presentIssue(issue));
    }),
  );

  app.get(
    "/api/v3/repos/:owner/:repo/issues/:number",
    route({ summary: "An issue (embedded GitHub)", action: "public" }),
    withIssue(presentIssue),
  );

  app.patch(
    "/api/v3/repos/:owner/:repo/issues/:number",
    route({ summary: "Close or reopen an issue (embedded GitHub)", action: "public" }),
    withIssue(async (issue, user, request, reply) => {
      if (!issue.repo.writers.has(user.id))
        return apiError(reply, 403, "Must have push access to update an issue.");
      const body = z
        .object({
          state: z.enum(["open", "closed"]).optional(),
          state_reason: z.enum(["completed", "not_planned", "reopened"]).nullish(),
          title: z.string().min(1).max(256).optional(),
          body: z.string().max(65536).nullish(),
        })
        .safeParse(request.body);
      if (!body.success)
        return apiError(reply, 422, "Validation Failed", {
          errors: [{ resource: "Issue", code: "invalid", field: "state" }],
        });
      if (body.data.title !== undefined) issue.title = body.data.title;
      if (body.data.body !== undefined) issue.body = body.data.body ?? "";
      if (body.data.state)
        await setState(issue, body.data.state, body.data.state_reason ?? undefined, user.id);
      return presentIssue(issue);
    }),
  );

  app.post(
    "/api/v3/repos/:owner/:repo/issues/:number/labels",
    route({
      summary: "Add labels to an issue (embedded GitHub; a new name makes the label)",
      action: "public",
    }),
    withIssue(async (issue, _user, request, reply) => {
      const names = z
        .union([
          z.object({ labels: z.array(z.string().min(1).max(50)).max(100) }),
          z.array(z.string().min(1).max(50)),
        ])
        .safeParse(request.body);
      if (!names.success) return apiError(reply, 422, "Validation Failed");
      for (const name of Array.isArray(names.data) ? names.data : names.data.labels)
        if (!issue.labels.includes(name)) issue.labels.push(name);
      issue.updatedAt = now();
      return presentIssue(issue).labels;
    }),
  );

  app.get(
    "/api/v3/repos/:owner/:repo/hooks",
    route({ summary: "A repository's webhooks (embedded GitHub)", action: "public" }),
    withAdminRepo(async (repo) => {
      return [...hooks.values()].filter((hook) => hook.repo === repo).map(presentHook);
    }),
  );

  app.post(
    "/api/v3/repos/:owner/:repo/hooks",
    route({ summary: "Create a repository webhook (embedded GitHub)", action: "public" }),
    withAdminRepo(async (repo, _user, request, reply) => {
      const body = z
        .object({
          name: z.literal("web").optional(),
          active: z.boolean().optional(),
          events: z.array(z.string().max(100)).min(1).max(50).default(["push"]),
          config: z.object({
            url: z.url().max(2000),
            content_type: z.enum(["json", "form"]).optional(),
            secret: z.string().max(500).optional(),
            insecure_ssl: z.union([z.string(), z.number()]).optional(),
          }),
        })
        .safeParse(request.body);
      if (!body.success)
        return apiError(reply, 422, "Validation Failed", {
          errors: [{ resource: "Hook", code: "custom", message: "Config must contain a valid url" }],
        });
      const hook: Hook = {
        id: nextId(),
        repo,
        url: body.data.config.url,
        secret: body.data.config.secret || null,
        events: body.data.events,
        active: body.data.active ?? true,
        createdAt: now(),
      };
      hooks.set(hook.id, hook);
      return reply.status(201).send(presentHook(hook));
    }),
  );

  app.delete(
    "/api/v3/repos/:owner/:repo/hooks/:hookId",
    route({ summary: "Delete a repository webhook (embedded GitHub)", action: "public" }),
    withHook(async (hook, _user, _request, reply) => {
      hooks.delete(hook.id);
      return reply.status(204).send();
    }),
  );

  const issuePageUrl = (issue: Issue) =>
    `${prefix}/${issue.repo.owner}/${issue.repo.name}/issues/${issue.number}`;
  itemPageRoutes(app, {
    path: "/:owner/:repo/issues/:number",
    summaries: {
      page: "An issue's page (embedded GitHub)",
      act: "Close or reopen an issue from its page (embedded GitHub)",
    },
    find: issueOf,
    missing: { page: errorPage("This issue does not exist."), text: "Not Found" },
    page: (issue) => {
      const closed = issue.state === "closed";
      return layout(
        `${issue.title} · Issue #${issue.number} · ${issue.repo.owner}/${issue.repo.name}`,
        `${PAGE_STYLE}<p class="eyebrow">GitHub · ${escapeHtml(`${issue.repo.owner}/${issue.repo.name}`)}</p>
<h1>${escapeHtml(issue.title)} <span>#${issue.number}</span></h1><p role="status">${closed ? "Closed" : "Open"}</p>
${issue.labels.length ? `<p>Labels: ${issue.labels.map(escapeHtml).join(", ")}</p>` : ""}
<pre style="white-space: pre-wrap">${escapeHtml(issue.body)}</pre>
${toggleForm(issuePageUrl(issue), closed, "state", ["open", "Reopen issue"], ["closed", "Close issue"])}`,
      );
    },
    act: async (issue, form) => {
      const state = String(form.state ?? "");
      // As the repository's owner would, on github.com.
      if (state === "open" || state === "closed")
        await setState(issue, state, undefined, [...issue.repo.writers][0] ?? issue.userId);
    },
    url: issuePageUrl,
  });

  app.patch(
    "/api/v3/repos/:owner/:repo/hooks/:hookId",
    route({ summary: "Change a repository webhook's events (embedded GitHub)", action: "public" }),
    withHook(async (hook, _user, request, reply) => {
      const body = z
        .object({
          active: z.boolean().optional(),
          events: z.array(z.string().max(100)).min(1).max(50).optional(),
          add_events: z.array(z.string().max(100)).max(50).optional(),
          remove_events: z.array(z.string().max(100)).max(50).optional(),
        })
        .safeParse(request.body);
      if (!body.success) return apiError(reply, 422, "Validation Failed");
      if (body.data.active !== undefined) hook.active = body.data.active;
      if (body.data.events) hook.events = body.data.events;
      for (const event of body.data.add_events ?? [])
        if (!hook.events.includes(event)) hook.events.push(event);
      hook.events = hook.events.filter((event) => !body.data.remove_events?.includes(event));
      return presentHook(hook);
    }),
  );

  app.post(
    "/api/v3/repos/:owner/:repo/statuses/:sha",
    route({ summary: "Create a commit status (embedded GitHub)", action: "public" }),
    withAdminRepo(async (repo, user, request, reply) => {
      const sha = (request.params as { sha: string }).sha;
      if (!/^[0-9a-f]{40}$/i.test(sha))
        return apiError(reply, 422, `No commit found for SHA: ${sha.slice(0, 64)}`);
      const body = z
        .object({
          state: z.enum(["error", "failure", "pending", "success"]),
          target_url: z.url().max(2000).nullish(),
          description: z.string().max(140).nullish(),
          context: z.string().min(1).max(255).default("default"),
        })
        .safeParse(request.body);
      if (!body.success)
        return apiError(reply, 422, "Validation Failed", {
          errors: [{ resource: "Status", code: "custom", field: "state" }],
        });
      const status: CommitStatus = {
        id: nextId(),
        state: body.data.state,
        context: body.data.context,
        description: body.data.description ?? null,
        targetUrl: body.data.target_url ?? null,
        creatorId: user.id,
        createdAt: now(),
      };
      const key = statusKey(repo, sha);
      statuses.set(key, [status, ...(statuses.get(key) ?? [])].slice(0, 1000));
      return reply.status(201).send(presentStatus(status));
    }),
  );

  app.get(
    "/api/v3/repos/:owner/:repo/commits/:ref/statuses",
    route({ summary: "A commit's statuses, newest first (embedded GitHub)", action: "public" }),
    withRepo(async (repo, _user, request) => {
      return (statuses.get(statusKey(repo, (request.params as { ref: string }).ref)) ?? []).map(
        presentStatus,
      );
    }),
  );

  app.get(
    "/api/v3/repos/:owner/:repo/pulls/:number",
    route({ summary: "A pull request (embedded GitHub)", action: "public" }),
    withPull(presentPull),
  );

  const pullInput = z.object({
    title: z.string().trim().min(1).max(256).default("Preview changes"),
    previewUrl: z
      .string()
      .trim()
      .max(2000)
      .refine((value) => value === "" || URL.canParse(value), "previewUrl is not a URL")
      .optional(),
  });

  app.get(
    "/:owner/:repo/pulls",
    route({
      summary: "A repository's pull requests, and a form to open one (embedded GitHub)",
      action: "public",
    }),
    async (request, reply) => {
      const repo = repoOf(request);
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      if (!repo) return reply.status(404).send(errorPage("This repository does not exist."));
      const name = `${repo.owner}/${repo.name}`;
      const list = [...pulls.values()]
        .filter((pull) => pull.repo === repo)
        .sort((a, b) => b.number - a.number)
        .map(
          (pull) =>
            `<li><a href="${escapeHtml(pullHtmlUrl(pull))}">${escapeHtml(pull.title)} #${pull.number}</a></li>`,
        )
        .join("");
      return layout(
        `Pull requests · ${name}`,
        `${PAGE_STYLE}<p class="eyebrow">GitHub · ${escapeHtml(name)}</p><h1>Pull requests</h1>
${list ? `<ul>${list}</ul>` : "<p>No pull requests yet.</p>"}
<h2>Open a pull request</h2>
<p>Its preview is deployed at once: the repository's webhooks hear <code>pull_request</code> and <code>deployment_status</code>.</p>
<form method="post" action="${prefix}/${escapeHtml(repo.owner)}/${escapeHtml(repo.name)}/pulls">
<label for="title">Title</label><input id="title" type="text" name="title" value="Preview changes" maxlength="256" required>
<label for="previewUrl">Preview URL</label><input id="previewUrl" type="text" name="previewUrl" placeholder="https://preview.example.com/pricing" maxlength="2000">
<div class="actions"><button class="primary" type="submit">Create pull request</button></div></form>`,
      );
    },
  );

  app.post(
    "/:owner/:repo/pulls",
    route({ summary: "Open a pull request from the repository's page (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const repo = repoOf(request);
      if (!repo) return reply.status(404).type("text/plain").send("Not Found");
      const input = pullInput.safeParse(request.body ?? {});
      if (!input.success) return reply.status(422).type("text/plain").send("Invalid title or preview URL");
      const pull = await openPull(repo, {
        title: input.data.title,
        previewUrl: input.data.previewUrl || null,
      });
      return reply.redirect(`${prefix}/${repo.owner}/${repo.name}/pull/${pull.number}`, 303);
    },
  );

  app.get(
    "/:owner/:repo/pull/:number",
    route({ summary: "A pull request's page with its checks (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const pull = pullOf(request);
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      if (!pull) return reply.status(404).send(errorPage("This pull request does not exist."));
      const checks = latestStatuses(pull.repo, pull.headSha)
        .map(
          (status) =>
            `<li><strong>${escapeHtml(status.context)}</strong> — <span data-state="${status.state}">${status.state}</span>${
              status.description ? ` · ${escapeHtml(status.description)}` : ""
            }${status.targetUrl ? ` · <a href="${escapeHtml(status.targetUrl)}">Details</a>` : ""}</li>`,
        )
        .join("");
      return layout(
        `${pull.title} · Pull Request #${pull.number} · ${pull.repo.owner}/${pull.repo.name}`,
        `${PAGE_STYLE}<p class="eyebrow">GitHub · ${escapeHtml(`${pull.repo.owner}/${pull.repo.name}`)}</p>
<h1>${escapeHtml(pull.title)} <span>#${pull.number}</span></h1>
<p>Head commit <code>${pull.headSha.slice(0, 7)}</code>${pull.previewUrl ? ` · preview <a href="${escapeHtml(pull.previewUrl)}">${escapeHtml(pull.previewUrl)}</a>` : ""}</p>
<section aria-label="Checks"><h2>Checks</h2>${checks ? `<ul>${checks}</ul>` : "<p>No checks have been reported.</p>"}</section>`,
      );
    },
  );

  const repoInput = z.string().regex(/^[^/\s]+\/[^/\s]+$/, "repo is owner/name");

  app.post(
    "/_pulls",
    route({
      summary: "Open a pull request with a preview (embedded GitHub, for tests): its hooks are told",
      action: "public",
    }),
    async (request, reply) => {
      const input = pullInput.extend({ repo: repoInput }).safeParse(request.body);
      const [owner = "", name = ""] = input.success ? input.data.repo.split("/") : [];
      const repo = repos.get(repoKey(owner, name));
      if (!input.success || !repo)
        return reply.status(400).send({ message: "repo (owner/name), title, previewUrl" });
      const pull = await openPull(repo, {
        title: input.data.title,
        previewUrl: input.data.previewUrl || null,
      });
      return reply.status(201).send(presentPull(pull));
    },
  );

  app.post(
    "/_deployments",
    route({
      summary: "Report a commit deployed at a URL (embedded GitHub, for tests): its hooks are told",
      action: "public",
    }),
    async (request, reply) => {
      const input = z
        .object({
          repo: repoInput,
          sha: z.string().regex(/^[0-9a-f]{40}$/),
          environmentUrl: z.url().max(2000),
        })
        .safeParse(request.body);
      const [owner = "", name = ""] = input.success ? input.data.repo.split("/") : [];
      const repo = repos.get(repoKey(owner, name));
      if (!input.success || !repo) return reply.status(400).send({ message: "repo, sha, environmentUrl" });
      await deployed(repo, input.data.sha, input.data.environmentUrl, "main");
      return reply.status(204).send();
    },
  );

  testControls(app, { service: "GitHub", faults });
}
