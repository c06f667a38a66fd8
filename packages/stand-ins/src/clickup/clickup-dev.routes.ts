/**
 * The embedded ClickUp stand-in (development and tests only; no CLICKUP_CLIENT_ID): ClickUp's API v2 at
 * its paths under one prefix, with what the app calls — the OAuth authorize page (`/api`, back to the
 * redirect URI with `code` and `state`) and `POST /api/v2/oauth/token`, the user, workspaces (teams),
 * spaces and their lists, tasks (create, update status, delete) and webhooks. A webhook hears each task's
 * status change as ClickUp sends it (`taskStatusUpdated` with `history_items`), signed per webhook:
 * `X-Signature` = hex HMAC-SHA256 of the body under the secret returned when it was made. A task has a
 * page (its `url`) where one completes it. Everything lives in memory.
 */
import { createHmac, randomBytes } from "node:crypto";
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
} from "../tracker-oauth.ts";
import { itemPageRoutes, toggleForm } from "../tracker-pages.ts";

export type ClickupDevOptions = TrackerAppOptions;

interface User {
  id: number;
  username: string;
  teamId: string;
}
interface Task {
  id: string;
  name: string;
  description: string;
  listId: string;
  teamId: string;
  status: { status: string; type: "open" | "closed" };
}
interface Hook {
  id: string;
  teamId: string;
  userId: number;
  endpoint: string;
  events: string[];
  listId: string | null;
  secret: string;
}

const STATUSES: Record<string, "open" | "closed"> = {
  "to do": "open",
  "in progress": "open",
  complete: "closed",
};
const id = () => randomBytes(5).toString("hex");

export function clickupSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

const authorizeQuery = z.object({
  client_id: z.string().max(200),
  redirect_uri: z.string().max(2000),
  state: z.string().max(2000).optional(),
});

const PAGE_STYLE = pageStyle("#7b68ee");
const errorPage = servicePage("ClickUp");

export async function clickupDevRoutes(app: FastifyInstance, options: ClickupDevOptions) {
  const { prefix } = options;
  const users = new Map<number, User>();
  const tokens = new Map<string, number>();
  const codes = new CodeStore<{ userId: number }>(() => randomBytes(16).toString("hex").toUpperCase());
  const teams = new Map<string, { id: string; name: string }>();
  const spaces = new Map<string, { id: string; name: string; teamId: string }>();
  const lists = new Map<string, { id: string; name: string; spaceId: string; teamId: string }>();
  const tasks = new Map<string, Task>();
  const hooks = new Map<string, Hook>();
  const faults = new Faults();
  let userCount = 0;

  acceptForms(app);

  const apiError = (reply: FastifyReply, status: number, err: string, ECODE: string) =>
    reply.status(status).send({ err, ECODE });

  const userOf = (request: FastifyRequest, reply: FastifyReply): User | null => {
    if (
      faults.answer(reply, (status) =>
        status === 429
          ? { err: "Rate limit reached", ECODE: "APP_002" }
          : { err: "Internal error", ECODE: "APP_001" },
      )
    )
      return null;
    const userId = tokens.get(request.headers.authorization ?? "");
    const user = userId === undefined ? undefined : users.get(userId);
    if (!user) {
      apiError(reply, 401, "Token invalid", "OAUTH_025");
      return null;
    }
    return user;
  };
  /** The API's handlers: for the token's user, and for a task of theirs (ClickUp's 404 when absent). */
  const authed = authedHandlers(userOf);

  const taskUrl = (task: Task) => `${options.appUrl}${prefix}/t/${task.id}`;
  const presentTask = (task: Task) => ({
    id: task.id,
    name: task.name,
    description: task.description,
    markdown_description: task.description,
    status: { status: task.status.status, type: task.status.type },
    list: { id: task.listId },
    team_id: task.teamId,
    url: taskUrl(task),
  });

  const setStatus = async (task: Task, status: string, userId: number) => {
    const before = task.status;
    if (before.status === status) return;
    task.status = { status, type: STATUSES[status] ?? "open" };
    const targets = [...hooks.values()].filter(
      (hook) =>
        hook.teamId === task.teamId &&
        (hook.listId === null || hook.listId === task.listId) &&
        hook.events.some((event) => event === "*" || event === "taskStatusUpdated"),
    );
    await Promise.all(
      targets.map(async (hook) => {
        const body = JSON.stringify({
          event: "taskStatusUpdated",
          history_items: [
            {
              id: id(),
              type: 1,
              date: String(Date.now()),
              field: "status",
              user: { id: userId },
              before: { status: before.status, type: before.type },
              after: { status: task.status.status, type: task.status.type },
            },
          ],
          task_id: task.id,
          webhook_id: hook.id,
        });
        await fetch(hook.endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", "x-signature": clickupSignature(hook.secret, body) },
          body,
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined);
      }),
    );
  };

  /** A new user gets a workspace with one space and two lists, as ClickUp's onboarding makes. */
  const newUser = (username: string): User => {
    userCount += 1;
    const team = { id: String(9000000 + userCount), name: `${username}'s Workspace` };
    teams.set(team.id, team);
    const space = { id: String(90100000 + userCount), name: "Team Space", teamId: team.id };
    spaces.set(space.id, space);
    for (const name of ["Feedback", "Bugs"]) {
      const list = { id: String(901000000 + lists.size + 1), name, spaceId: space.id, teamId: team.id };
      lists.set(list.id, list);
    }
    const user = { id: 1000 + userCount, username, teamId: team.id };
    users.set(user.id, user);
    return user;
  };

  authorizeRoutes(app, {
    path: "/api",
    prefix,
    service: "ClickUp",
    query: authorizeQuery,
    problem: appAndReturnUrl(options.clientId, "Invalid client_id or redirect_uri."),
    malformed: "Invalid client_id or redirect_uri.",
    errorPage,
    page: (_query, _hidden, form) =>
      layout(
        "ClickUp — connect workspace",
        `${PAGE_STYLE}<p class="eyebrow">ClickUp · Redline stand-in</p><h1>Connect your workspace to Redline?</h1>
${form}`,
      ),
    nameField: "username",
    form: { label: "Your ClickUp name", id: "user", deny: "Cancel", allow: "Connect Workspace" },
    code: (_query, username) => {
      const user = [...users.values()].find((u) => u.username === username) ?? newUser(username);
      return codes.issue({ userId: user.id });
    },
  });

  app.post(
    "/api/v2/oauth/token",
    route({ summary: "Exchange an authorization code for a token (embedded ClickUp)", action: "public" }),
    async (request, reply) => {
      const params = tokenParams(request, true);
      if (!isKnownClient(params, options)) return apiError(reply, 400, "Client not found", "OAUTH_010");
      const grant = codes.take(params.code);
      if (!grant) return apiError(reply, 400, "Code not found", "OAUTH_014");
      const token = `${grant.userId}_${randomBytes(20).toString("hex")}`;
      tokens.set(token, grant.userId);
      return { access_token: token };
    },
  );

  app.get(
    "/api/v2/user",
    route({ summary: "The token's user (embedded ClickUp)", action: "public" }),
    authed(async (user) => {
      return { user: { id: user.id, username: user.username } };
    }),
  );

  app.get(
    "/api/v2/team",
    route({ summary: "The user's workspaces (embedded ClickUp)", action: "public" }),
    authed(async (user) => {
      const team = teams.get(user.teamId)!;
      return {
        teams: [
          { id: team.id, name: team.name, members: [{ user: { id: user.id, username: user.username } }] },
        ],
      };
    }),
  );

  const teamParam = (request: FastifyRequest, user: User) =>
    (request.params as { teamId: string }).teamId === user.teamId;

  app.get(
    "/api/v2/team/:teamId/space",
    route({ summary: "A workspace's spaces (embedded ClickUp)", action: "public" }),
    authed(async (user, request, reply) => {
      if (!teamParam(request, user)) return apiError(reply, 401, "Team not authorized", "OAUTH_027");
      return {
        spaces: [...spaces.values()]
          .filter((s) => s.teamId === user.teamId)
          .map(({ id, name }) => ({ id, name })),
      };
    }),
  );

  app.get(
    "/api/v2/space/:spaceId/list",
    route({ summary: "A space's lists (embedded ClickUp)", action: "public" }),
    authed(async (user, request, reply) => {
      const space = spaces.get((request.params as { spaceId: string }).spaceId);
      if (!space || space.teamId !== user.teamId)
        return apiError(reply, 401, "Team not authorized", "OAUTH_027");
      return {
        lists: [...lists.values()]
          .filter((l) => l.spaceId === space.id)
          .map(({ id, name }) => ({ id, name })),
      };
    }),
  );

  app.post(
    "/api/v2/list/:listId/task",
    route({ summary: "Create a task (embedded ClickUp)", action: "public" }),
    authed(async (user, request, reply) => {
      const list = lists.get((request.params as { listId: string }).listId);
      if (!list || list.teamId !== user.teamId)
        return apiError(reply, 401, "Team not authorized", "OAUTH_027");
      const body = z
        .object({
          name: z.string().min(1).max(16384),
          markdown_description: z.string().max(65536).optional(),
          description: z.string().max(65536).optional(),
        })
        .safeParse(request.body);
      if (!body.success) return apiError(reply, 400, "Task name invalid", "INPUT_005");
      const task: Task = {
        id: id().slice(0, 9),
        name: body.data.name,
        description: body.data.markdown_description ?? body.data.description ?? "",
        listId: list.id,
        teamId: list.teamId,
        status: { status: "to do", type: "open" },
      };
      tasks.set(task.id, task);
      return presentTask(task);
    }),
  );

  const taskOf = (request: FastifyRequest, user: User) => {
    const task = tasks.get((request.params as { taskId: string }).taskId);
    return task && task.teamId === user.teamId ? task : null;
  };
  const withTask = authed.about(taskOf, (reply) => apiError(reply, 404, "Task not found", "ITEM_013"));

  app.get(
    "/api/v2/task/:taskId",
    route({ summary: "A task (embedded ClickUp)", action: "public" }),
    withTask(presentTask),
  );

  app.put(
    "/api/v2/task/:taskId",
    route({ summary: "Update a task's status (embedded ClickUp)", action: "public" }),
    withTask(async (task, user, request, reply) => {
      const body = z
        .object({ status: z.string().max(100).optional(), name: z.string().max(16384).optional() })
        .safeParse(request.body);
      if (!body.success || (body.data.status !== undefined && !(body.data.status.toLowerCase() in STATUSES)))
        return apiError(reply, 400, "Status does not exist", "CRTSK_001");
      if (body.data.name !== undefined) task.name = body.data.name;
      if (body.data.status !== undefined) await setStatus(task, body.data.status.toLowerCase(), user.id);
      return presentTask(task);
    }),
  );

  app.delete(
    "/api/v2/task/:taskId",
    route({ summary: "Delete a task (embedded ClickUp)", action: "public" }),
    withTask(async (task, _user, _request, reply) => {
      tasks.delete(task.id);
      return reply.status(204).send();
    }),
  );

  app.post(
    "/api/v2/team/:teamId/webhook",
    route({ summary: "Create a webhook (embedded ClickUp)", action: "public" }),
    authed(async (user, request, reply) => {
      if (!teamParam(request, user)) return apiError(reply, 401, "Team not authorized", "OAUTH_027");
      const body = z
        .object({
          endpoint: z.url().max(2000),
          events: z.array(z.string().max(100)).min(1).max(50),
          list_id: z.union([z.string(), z.number()]).optional(),
        })
        .safeParse(request.body);
      if (!body.success) return apiError(reply, 400, "Webhook endpoint invalid", "OAUTH_171");
      const hook: Hook = {
        id: randomBytes(16)
          .toString("hex")
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5"),
        teamId: user.teamId,
        userId: user.id,
        endpoint: body.data.endpoint,
        events: body.data.events,
        listId: body.data.list_id === undefined ? null : String(body.data.list_id),
        secret: randomBytes(32)
          .toString("base64url")
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, "")
          .slice(0, 40),
      };
      hooks.set(hook.id, hook);
      return {
        id: hook.id,
        webhook: {
          id: hook.id,
          userid: user.id,
          team_id: Number(hook.teamId),
          endpoint: hook.endpoint,
          client_id: options.clientId,
          events: hook.events,
          list_id: hook.listId === null ? null : Number(hook.listId),
          health: { status: "active", fail_count: 0 },
          secret: hook.secret,
        },
      };
    }),
  );

  app.delete(
    "/api/v2/webhook/:webhookId",
    route({ summary: "Delete a webhook (embedded ClickUp)", action: "public" }),
    authed(async (user, request, reply) => {
      const hook = hooks.get((request.params as { webhookId: string }).webhookId);
      if (!hook || hook.teamId !== user.teamId) return apiError(reply, 404, "Webhook not found", "OAUTH_043");
      hooks.delete(hook.id);
      return {};
    }),
  );

  itemPageRoutes(app, {
    path: "/t/:taskId",
    summaries: {
      page: "A task's page (embedded ClickUp)",
      act: "Set a task's status from its page (embedded ClickUp)",
    },
    find: (request) => tasks.get((request.params as { taskId: string }).taskId),
    missing: { page: errorPage("Task not found."), text: "Task not found." },
    page: (task) =>
      layout(
        `${task.name} | ClickUp`,
        `${PAGE_STYLE}<p class="eyebrow">ClickUp · ${escapeHtml(lists.get(task.listId)?.name ?? "")}</p>
<h1>${escapeHtml(task.name)}</h1><p role="status">${escapeHtml(task.status.status.toUpperCase())}</p>
<pre style="white-space: pre-wrap">${escapeHtml(task.description)}</pre>
${toggleForm(`${prefix}/t/${task.id}`, task.status.type === "closed", "status", ["to do", "Reopen"], ["complete", "Mark complete"])}`,
      ),
    act: async (task, form) => {
      const status = String(form.status ?? "");
      if (status in STATUSES)
        await setStatus(task, status, [...users.values()].find((u) => u.teamId === task.teamId)?.id ?? 0);
    },
    url: (task) => `${prefix}/t/${task.id}`,
  });

  testControls(app, { service: "ClickUp", faults });
}
