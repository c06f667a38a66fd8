/**
 * An item's page on a task-tracker stand-in's site (a task, a card, an issue) and what a person does from
 * its form, as on the service's own site: `GET` shows the page (the service's error page, 404, for an item
 * not found), `POST` acts on the form's fields and goes back to the page (a line of text, 404, for an item
 * not found).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { route } from "./route.ts";

export interface ItemPage<Item> {
  path: string;
  /** The two routes' summaries: the page, and the person's action from it. */
  summaries: { page: string; act: string };
  find: (request: FastifyRequest) => Item | null | undefined;
  /** The error page for an item not found, and the text a form posted for one gets. */
  missing: { page: string; text: string };
  page: (item: Item) => string;
  act: (item: Item, form: Record<string, string>) => Promise<void>;
  /** Where the page is, to go back to after the action. */
  url: (item: Item) => string;
}

export function itemPageRoutes<Item>(app: FastifyInstance, item: ItemPage<Item>) {
  app.get(item.path, route({ summary: item.summaries.page, action: "public" }), async (request, reply) => {
    const found = item.find(request);
    reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
    if (!found) return reply.status(404).send(item.missing.page);
    return item.page(found);
  });

  app.post(item.path, route({ summary: item.summaries.act, action: "public" }), async (request, reply) => {
    const found = item.find(request);
    if (!found) return reply.status(404).type("text/plain").send(item.missing.text);
    await item.act(found, (request.body ?? {}) as Record<string, string>);
    return reply.redirect(item.url(found), 303);
  });
}

/**
 * The page's one button, posting `field` to `action`: finishing the item (the primary button) while it is
 * open, reopening it once it is done; each a value and a label in the service's words.
 */
export const toggleForm = (
  action: string,
  done: boolean,
  field: string,
  reopen: [value: string, label: string],
  finish: [value: string, label: string],
) =>
  `<form method="post" action="${action}" class="actions">${
    done
      ? `<button type="submit" name="${field}" value="${reopen[0]}">${reopen[1]}</button>`
      : `<button class="primary" type="submit" name="${field}" value="${finish[0]}">${finish[1]}</button>`
  }</form>`;
