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
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { escapeHtml, layout } from "../stripe/checkout-page.ts";
import { Faults } from "../tracker-faults.ts";
import {
  acceptForms,
  appAndReturnUrl,
  authorizeRoutes,
  CodeStore,
  pageStyle,
  errorPage as servicePage,
  testControls,
  tokenParams,
  withState,
} from "../tracker-oauth.ts";

export interface GithubDevOptions {
  appUrl: string;
  prefix: string;
  /** The one OAuth app this stand-in knows. */
  clientId: string;
  clientSecret: string;
}

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
    const targets = [...hooks.values()].filter(
      (hook) =>
        hook.repo === issue.repo && hook.active && hook.events.some((e) => e === "*" || e === "issues"),
    );
    await Promise.all(
      targets.map(async (hook) => {
        const body = JSON.stringify({
          action: state === "closed" ? "closed" : "reopened",
          issue: presentIssue(issue),
          repository: presentRepo(issue.repo),
          sender: presentUser(senderId),
        });
        await fetch(hook.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "GitHub-Hookshot/redline-stand-in",
            "x-github-event": "issues",
            "x-github-delivery": randomUUID(),
            "x-github-hook-id": String(hook.id),
            ...(hook.secret && { "x-hub-signature-256": githubSignature(hook.secret, body) }),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined);
      }),
    );
  };

  authorizeRoutes(app, {
    path: "/login/oauth/authorize",
    prefix,
    service: "GitHub",
    query: authorizeQuery,
    problem: appAndReturnUrl(options.clientId, "Invalid client_id or redirect_uri."),
    malformed: "Invalid client_id or redirect_uri.",
    errorPage,
    page: (query, hidden) =>
      layout(
        "Authorize application",
        `${PAGE_STYLE}<p class="eyebrow">GitHub · Redline stand-in</p><h1>Authorize Redline</h1>
<p>Redline wants to access your repositories (scope <code>${escapeHtml(query.scope ?? "")}</code>): read and write issues and repository webhooks.</p>
<form method="post" action="${prefix}/login/oauth/authorize">${hidden}
<label for="login">Your GitHub username</label><input id="login" type="text" name="login" value="test-user" maxlength="39" required>
<div class="actions"><button type="submit" name="decision" value="deny">Cancel</button>
<button class="primary" type="submit" name="decision" value="allow">Authorize</button></div></form>`,
      ),
    nameField: "login",
    defaultName: "test-user",
    // GitHub's usernames: letters, digits and single hyphens, at most 39.
    validName: (login) =>
      /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/.test(login) &&
      login.toLowerCase() !== READ_ONLY_ORG,
    returnUrl: (query) => query.redirect_uri,
    deny: (back, query) => {
      withState(back, query);
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user has denied your application access.");
    },
    allow: (back, query, login) => {
      const user =
        [...users.values()].find((u) => u.login.toLowerCase() === login.toLowerCase()) ?? newUser(login);
      withState(back, query);
      back.searchParams.set("code", codes.issue({ userId: user.id, scope: query.scope ?? "" }));
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
      if (params.client_id !== options.clientId || params.client_secret !== options.clientSecret)
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
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      return {
        ...presentUser(user.id),
        name: user.name,
        html_url: `${options.appUrl}${prefix}/${user.login}`,
      };
    },
  );

  app.get(
    "/api/v3/user/repos",
    route({ summary: "The authenticated user's repositories (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      return (
        [...repos.values()]
          .filter(
            (repo) => repo.owner === user.login || repo.writers.has(user.id) || repo.owner === READ_ONLY_ORG,
          )
          // GitHub's default order for this list: by full name.
          .sort((a, b) => `${a.owner}/${a.name}`.localeCompare(`${b.owner}/${b.name}`))
          .map((repo) => presentRepo(repo, user))
      );
    },
  );

  app.post(
    "/api/v3/repos/:owner/:repo/issues",
    route({ summary: "Create an issue (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const repo = repoOf(request);
      if (!repo) return apiError(reply, 404, "Not Found");
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
    },
  );

  app.get(
    "/api/v3/repos/:owner/:repo/issues/:number",
    route({ summary: "An issue (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const issue = issueOf(request);
      if (!issue) return apiError(reply, 404, "Not Found");
      return presentIssue(issue);
    },
  );

  app.patch(
    "/api/v3/repos/:owner/:repo/issues/:number",
    route({ summary: "Close or reopen an issue (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const issue = issueOf(request);
      if (!issue) return apiError(reply, 404, "Not Found");
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
    },
  );

  app.post(
    "/api/v3/repos/:owner/:repo/issues/:number/labels",
    route({
      summary: "Add labels to an issue (embedded GitHub; a new name makes the label)",
      action: "public",
    }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const issue = issueOf(request);
      if (!issue) return apiError(reply, 404, "Not Found");
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
    },
  );

  app.get(
    "/api/v3/repos/:owner/:repo/hooks",
    route({ summary: "A repository's webhooks (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const repo = repoOf(request);
      if (!repo?.writers.has(user.id)) return apiError(reply, 404, "Not Found");
      return [...hooks.values()].filter((hook) => hook.repo === repo).map(presentHook);
    },
  );

  app.post(
    "/api/v3/repos/:owner/:repo/hooks",
    route({ summary: "Create a repository webhook (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const repo = repoOf(request);
      // Only a repository's admins see its hooks: GitHub answers anyone else 404.
      if (!repo?.writers.has(user.id)) return apiError(reply, 404, "Not Found");
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
    },
  );

  app.delete(
    "/api/v3/repos/:owner/:repo/hooks/:hookId",
    route({ summary: "Delete a repository webhook (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const repo = repoOf(request);
      const hook = hooks.get(Number((request.params as { hookId: string }).hookId));
      if (!repo?.writers.has(user.id) || hook?.repo !== repo) return apiError(reply, 404, "Not Found");
      hooks.delete(hook.id);
      return reply.status(204).send();
    },
  );

  app.get(
    "/:owner/:repo/issues/:number",
    route({ summary: "An issue's page (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const issue = issueOf(request);
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      if (!issue) return reply.status(404).send(errorPage("This issue does not exist."));
      const closed = issue.state === "closed";
      return layout(
        `${issue.title} · Issue #${issue.number} · ${issue.repo.owner}/${issue.repo.name}`,
        `${PAGE_STYLE}<p class="eyebrow">GitHub · ${escapeHtml(`${issue.repo.owner}/${issue.repo.name}`)}</p>
<h1>${escapeHtml(issue.title)} <span>#${issue.number}</span></h1><p role="status">${closed ? "Closed" : "Open"}</p>
${issue.labels.length ? `<p>Labels: ${issue.labels.map(escapeHtml).join(", ")}</p>` : ""}
<pre style="white-space: pre-wrap">${escapeHtml(issue.body)}</pre>
<form method="post" action="${prefix}/${issue.repo.owner}/${issue.repo.name}/issues/${issue.number}" class="actions">${
          closed
            ? `<button type="submit" name="state" value="open">Reopen issue</button>`
            : `<button class="primary" type="submit" name="state" value="closed">Close issue</button>`
        }</form>`,
      );
    },
  );

  app.post(
    "/:owner/:repo/issues/:number",
    route({ summary: "Close or reopen an issue from its page (embedded GitHub)", action: "public" }),
    async (request, reply) => {
      const issue = issueOf(request);
      if (!issue) return reply.status(404).type("text/plain").send("Not Found");
      const state = String(((request.body ?? {}) as Record<string, string>).state ?? "");
      // As the repository's owner would, on github.com.
      if (state === "open" || state === "closed")
        await setState(issue, state, undefined, [...issue.repo.writers][0] ?? issue.userId);
      return reply.redirect(`${prefix}/${issue.repo.owner}/${issue.repo.name}/issues/${issue.number}`, 303);
    },
  );

  testControls(app, { service: "GitHub", faults });
}
