/**
 * The popup: sign in through Redline, choose a project (only those you may edit), add the tab as a new
 * page or a new version of one — serialized in the tab by SingleFile, uploaded with progress, retried on
 * failure — or a region of it as an image page, and the open threads on this address. Opened from the menu or the shortcut it is a window
 * for the tab named by `?tab=`.
 */
import type { ExtensionAdded, ExtensionProject, ExtensionThread } from "@redline/shared/extension";
import { EXTENSION_MESSAGES } from "@redline/shared/extension";
import { account, api, REDLINE_URL } from "../../src/redline";
import { isPageTooLarge, sendUpload, xhrTransport } from "../../src/upload";

const app = document.getElementById("app")!;

/** Builds an element: h("button", { class: "primary", onclick }, "Add"). */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: (Node | string | null | false)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value as EventListener);
    else if (key === "class") element.className = String(value);
    else if (value !== undefined && value !== false) element.setAttribute(key, String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

const show = (...nodes: (Node | null | false)[]) =>
  app.replaceChildren(...(nodes.filter((node) => node) as Node[]));
const openInRedline = (path: string) => browser.tabs.create({ url: `${REDLINE_URL}${path}` });

async function targetTab() {
  const named = Number(new URLSearchParams(location.search).get("tab"));
  if (named) return browser.tabs.get(named);
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab;
}

async function render() {
  const held = await account();
  if (!held) return renderSignedOut();
  const tab = await targetTab();
  const header = h(
    "header",
    {},
    h("h1", {}, "Redline"),
    h(
      "button",
      {
        class: "link",
        onclick: async () => {
          await api("DELETE", "/api/extension/session").catch(() => {});
          await browser.storage.local.remove("account");
          void render();
        },
      },
      "Sign out",
    ),
  );
  const who = h("p", { class: "muted" }, `Signed in as ${held.user.email}`);
  if (!tab?.id || !tab.url || !/^https?:/.test(tab.url)) {
    return show(
      header,
      who,
      h("p", {}, "Redline adds web pages (http or https) only: open one and try again."),
    );
  }
  show(header, who, h("p", { class: "muted" }, "Loading your projects…"));
  let projects: ExtensionProject[];
  let threads: ExtensionThread[];
  try {
    [projects, threads] = await Promise.all([
      api<{ data: ExtensionProject[] }>("GET", "/api/extension/projects").then((answer) => answer.data),
      api<{ data: ExtensionThread[] }>(
        "GET",
        `/api/extension/threads?url=${encodeURIComponent(tab.url)}`,
      ).then((answer) => answer.data),
    ]);
  } catch (error) {
    if (!(await account())) return renderSignedOut();
    return show(header, who, h("p", { class: "error", role: "alert" }, (error as Error).message));
  }
  void browser.runtime.sendMessage({ type: "badge" }).catch(() => {});
  show(header, who, addSection(tab as Tab, projects), threadsSection(threads), countsSection());
}

type Tab = { id: number; url: string; title?: string; windowId: number };

function renderSignedOut(waiting = false) {
  show(
    h("header", {}, h("h1", {}, "Redline")),
    h("p", {}, "Add the page you are on — signed in, as you see it — to a Redline project."),
    h(
      "button",
      {
        class: "primary",
        onclick: async () => {
          await browser.runtime.sendMessage({ type: "sign-in" });
          renderSignedOut(true);
        },
      },
      "Sign in with Redline",
    ),
    waiting && h("p", { class: "muted", role: "status" }, EXTENSION_MESSAGES.pending),
  );
}

function addSection(tab: Tab, projects: ExtensionProject[]) {
  if (projects.length === 0)
    return h(
      "p",
      {},
      "None of your projects takes pages from the extension: you need edit access to a web or web app project.",
    );
  const project = h(
    "select",
    { id: "project", name: "project" },
    ...projects.map((p) => h("option", { value: p.id }, p.title)),
  );
  const target = h("select", { id: "target", name: "target" });
  const fillTargets = () => {
    const chosen = projects.find((p) => p.id === project.value)!;
    target.replaceChildren(
      h("option", { value: "" }, "A new page"),
      ...chosen.pages.map((page) =>
        h("option", { value: page.id, selected: page.url === tab.url }, `A new version of “${page.title}”`),
      ),
    );
  };
  project.addEventListener("change", fillTargets);
  fillTargets();
  const status = h("div", { role: "status" });
  const button = h("button", { class: "primary", type: "submit" }, "Add this page");
  const form = h("form", {
    onsubmit: (event: Event) => {
      event.preventDefault();
      void addPage(tab, project.value, target.value || undefined, status, button);
    },
  });
  form.style.display = "grid";
  form.style.gap = "10px";
  // A region of the tab as an image page: the worker waits for the rectangle dragged in the tab.
  const region = h(
    "button",
    {
      type: "button",
      onclick: async () => {
        await browser.runtime.sendMessage({ type: "region", tabId: tab.id, projectId: project.value });
        status.replaceChildren(h("p", {}, "Drag over the page to choose the region (Esc cancels)."));
        await browser.tabs.update(tab.id, { active: true });
        window.close();
      },
    },
    "Screenshot a region",
  );
  form.append(
    h("p", { class: "muted" }, tab.title ?? tab.url),
    h("label", { for: "project" }, "Project", project),
    h("label", { for: "target" }, "Add as", target),
    button,
    region,
    status,
  );
  return form;
}

interface Serialized {
  html: string;
  title: string;
  width: number;
}

/** Runs in the tab (serialized with toString): SingleFile, as the server's captures run it. */
async function serializeInTab(): Promise<Serialized> {
  const scope = globalThis as unknown as {
    singlefile: { getPageData(options: unknown, init?: unknown): Promise<{ content: string }> };
    __redlineSingleFileOptions: Record<string, unknown>;
  };
  const data = await scope.singlefile.getPageData(
    { ...scope.__redlineSingleFileOptions, url: document.documentURI },
    { fetch: (url: string, options: RequestInit) => fetch(url, { ...options, credentials: "include" }) },
  );
  return { html: data.content, title: document.title, width: window.innerWidth };
}

async function addPage(
  tab: Tab,
  projectId: string,
  pageId: string | undefined,
  status: HTMLElement,
  button: HTMLButtonElement,
) {
  const started = performance.now();
  button.disabled = true;
  const fail = (message: string, retry: boolean) => {
    button.disabled = false;
    status.replaceChildren(h("p", { class: "error", role: "alert" }, message));
    if (retry)
      status.append(
        h(
          "button",
          { type: "button", onclick: () => addPage(tab, projectId, pageId, status, button) },
          "Try again",
        ),
      );
  };
  status.replaceChildren(h("p", {}, "Reading the page…"));
  let serialized: Serialized;
  let screenshot: string | undefined;
  try {
    await browser.scripting.executeScript({ target: { tabId: tab.id }, files: ["/single-file.js"] });
    const [result] = await browser.scripting.executeScript({
      target: { tabId: tab.id },
      func: serializeInTab,
    });
    serialized = result!.result as Serialized;
    // The browser captures what the tab's window shows: the tab's pixels only while it is the tab shown
    // there (a popup window of the menu or shortcut leaves it so; a tab switched to since does not).
    const shown = (await browser.tabs.get(tab.id)).active;
    const png = shown
      ? await browser.tabs.captureVisibleTab(tab.windowId, { format: "png" }).catch(() => null)
      : null;
    screenshot = png?.slice(png.indexOf(",") + 1);
  } catch (error) {
    return fail(`Redline could not read this page: ${(error as Error).message}`, true);
  }
  const body = JSON.stringify({
    projectId,
    ...(pageId && { pageId }),
    url: tab.url,
    title: serialized.title.slice(0, 200),
    html: serialized.html,
    ...(screenshot && { screenshot }),
    width: Math.min(Math.max(serialized.width, 200), 4000),
  });
  if (isPageTooLarge(serialized.html)) return fail(EXTENSION_MESSAGES.tooLarge, false);
  const progress = h("progress", { max: 100, value: 0, "aria-label": "Upload progress" });
  status.replaceChildren(h("p", {}, "Uploading…"), progress);
  const outcome = await upload<ExtensionAdded>("/api/extension/pages", body, (fraction) => {
    progress.value = Math.round(fraction * 100);
  });
  if (!outcome.ok) return fail(outcome.message, outcome.retry);
  status.replaceChildren(
    h("p", {}, `Added. Opening it in Redline… (${((performance.now() - started) / 1000).toFixed(1)} s)`),
  );
  await openInRedline(outcome.data.path);
}

/** An upload with the credential; a refused credential signs the extension out. */
async function upload<T>(path: string, body: string | FormData, onProgress?: (fraction: number) => void) {
  const held = await account();
  const outcome = await sendUpload<T>(xhrTransport, {
    url: `${REDLINE_URL}${path}`,
    secret: held?.secret ?? null,
    body,
    onProgress,
  });
  if (!outcome.ok && outcome.status === 401) await browser.storage.local.remove("account");
  return outcome;
}

function threadsSection(threads: ExtensionThread[]) {
  return h(
    "section",
    { "aria-labelledby": "threads" },
    h("h2", { id: "threads" }, `Open threads on this page (${threads.length})`),
    threads.length === 0
      ? h("p", { class: "muted" }, "No open threads on this address in your projects.")
      : h(
          "ul",
          {},
          ...threads.map((thread) =>
            h(
              "li",
              {},
              h(
                "button",
                { type: "button", onclick: () => openInRedline(thread.path) },
                thread.text || "(no text)",
                h("span", { class: "muted" }, ` — ${thread.projectTitle}`),
              ),
            ),
          ),
        ),
  );
}

function countsSection() {
  const section = h("div");
  void browser.permissions.contains({ permissions: ["tabs"] }).then((granted) => {
    if (granted) return;
    section.append(
      h(
        "button",
        {
          type: "button",
          class: "link",
          onclick: async () => {
            if (await browser.permissions.request({ permissions: ["tabs"] })) section.replaceChildren();
          },
        },
        "Show thread counts on every page",
      ),
    );
  });
  return section;
}

browser.storage.onChanged.addListener((changes) => {
  if (changes.account) void render();
});
void render();
