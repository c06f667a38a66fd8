import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Snackbars } from "../../components/snackbars.tsx";
import { IntegrationsPanel } from "./integrations-panel.tsx";
import { TrackerCardActions } from "./tracker-card-actions.tsx";
import {
  AsanaReturnPage,
  GithubReturnPage,
  JiraReturnPage,
  TrelloReturnPage,
} from "./tracker-return-page.tsx";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const requests: { method: string; url: string; body?: unknown }[] = [];

function stubApi(answer: (method: string, url: string) => Response) {
  requests.length = 0;
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    requests.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return answer(method, url);
  });
}
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const wrap = (children: ReactNode, path = "/") =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <QueryClientProvider client={new QueryClient()}>
        {children}
        <Snackbars />
      </QueryClientProvider>
    </MemoryRouter>,
  );

const trello = (tracker: object | null) => ({
  id: "i1",
  type: "trello",
  isEnabled: true,
  tracker,
  webhook: null,
  createdAt: "2026-11-28T00:00:00.000Z",
  modifiedAt: "2026-11-28T00:00:00.000Z",
});
const board = {
  id: "b1",
  name: "Redline reviews",
  lists: [
    { id: "l1", name: "To Do" },
    { id: "l2", name: "Doing" },
  ],
};

describe("the task trackers in the Integrations panel", () => {
  it("connects through Trello's authorize page, with the guide one click away", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    stubApi((_method, url) =>
      url.endsWith("/trello/authorize")
        ? json(200, { data: { url: "https://trello.example/1/authorize?state=s" } })
        : json(200, { data: { available: ["webhook", "trello", "clickup"], integrations: [] } }),
    );
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "Trello" });
    expect(screen.getByRole("region", { name: "ClickUp" })).toBeTruthy();
    await userEvent.click(within(card).getByRole("button", { name: "How it works" }));
    expect(await screen.findByRole("dialog", { name: "How Trello works with Redline" })).toBeTruthy();
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(card).getByRole("button", { name: "Connect Trello" }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("https://trello.example/1/authorize?state=s"));
  });

  it("chooses a board and list and the automatic rule, and disconnects with SPEC's text", async () => {
    let disconnected = false;
    stubApi((method, url) => {
      if (url.endsWith("/destinations")) return json(200, { data: [board] });
      if (method === "PUT") return json(200, { message: "Settings saved.", data: trello({}) });
      if (method === "DELETE") {
        disconnected = true;
        return json(200, { message: "Trello disconnected successfully." });
      }
      return json(200, {
        data: {
          available: ["webhook", "trello"],
          // Once disconnected the list no longer has it: the card drops its Disconnect button.
          integrations: disconnected
            ? []
            : [trello({ isAuthorized: true, account: "Tess", destination: null, autoCreate: false })],
        },
      });
    });
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "Trello" });
    expect(within(card).getByText("Connected as Tess.")).toBeTruthy();
    await userEvent.click(await within(card).findByRole("button", { name: "Save" }));
    // The account's one board is chosen already; a list is not.
    expect(await within(card).findByText("Choose a list.")).toBeTruthy();
    await userEvent.selectOptions(within(card).getByLabelText("Board"), "b1");
    await userEvent.selectOptions(within(card).getByLabelText("List"), "l2");
    await userEvent.click(
      within(card).getByRole("switch", { name: "Create a card for each new comment and ticket" }),
    );
    await userEvent.click(within(card).getByRole("button", { name: "Save" }));
    await vi.waitFor(() =>
      expect(requests.find((request) => request.method === "PUT")).toEqual({
        method: "PUT",
        url: "/api/projects/p1/integrations/trello",
        body: { containerId: "b1", listId: "l2", autoCreate: true },
      }),
    );
    await userEvent.click(within(card).getByRole("button", { name: "Disconnect" }));
    await userEvent.click(await screen.findByRole("button", { name: "Disconnect" }));
    expect(await screen.findByText("Trello disconnected successfully.")).toBeTruthy();
    expect(await within(card).findByRole("button", { name: "Connect Trello" })).toBeTruthy();
  });
});

describe("GitHub in the Integrations panel", () => {
  it("chooses a repository in GitHub's words, and its return route forwards the code", async () => {
    const account = {
      id: "gita",
      name: "gita",
      lists: [
        { id: "feedback", name: "feedback" },
        { id: "website", name: "website" },
      ],
    };
    stubApi((method, url) => {
      if (url.endsWith("/destinations")) return json(200, { data: [account] });
      if (method === "PUT") return json(200, { message: "Settings saved.", data: {} });
      return json(200, {
        data: {
          available: ["webhook", "trello", "clickup", "github"],
          integrations: [
            {
              ...trello({ isAuthorized: true, account: "gita", destination: null, autoCreate: false }),
              type: "github",
            },
          ],
        },
      });
    });
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "GitHub" });
    expect(within(card).getByText(/into GitHub issues/)).toBeTruthy();
    await userEvent.click(await within(card).findByRole("button", { name: "Save" }));
    // The one account needs no choosing; a repository does.
    expect(await within(card).findByText("Choose a repository.")).toBeTruthy();
    expect(within(card).queryByLabelText("Account")).toBeNull();
    await userEvent.selectOptions(within(card).getByLabelText("Repository"), "website");
    await userEvent.click(
      within(card).getByRole("switch", { name: "Create an issue for each new comment and ticket" }),
    );
    await userEvent.click(within(card).getByRole("button", { name: "Save" }));
    await vi.waitFor(() =>
      expect(requests.find((request) => request.method === "PUT")).toEqual({
        method: "PUT",
        url: "/api/projects/p1/integrations/github",
        body: { containerId: "gita", listId: "website", autoCreate: true },
      }),
    );
    cleanup();

    stubApi(() => json(200, { message: "GitHub connected successfully", projectId: "p9", data: {} }));
    wrap(
      <Routes>
        <Route path="/integration/github" element={<GithubReturnPage />} />
        <Route path="/project/:projectId" element={<p>The project</p>} />
      </Routes>,
      "/integration/github?code=c0de&state=abc",
    );
    expect(await screen.findByText("The project")).toBeTruthy();
    expect(await screen.findByText("GitHub connected successfully")).toBeTruthy();
    expect(requests).toEqual([
      { method: "POST", url: "/api/integrations/github/connect", body: { state: "abc", code: "c0de" } },
    ]);
  });
});

describe("GitHub's merge gate switch", () => {
  it("shows once a repository is chosen, and shows what the server answers", async () => {
    let gate = false;
    const github = () => ({
      ...trello({
        isAuthorized: true,
        account: "gita",
        destination: { containerId: "gita", containerName: "gita", listId: "site", listName: "site" },
        autoCreate: false,
        mergeGate: gate,
      }),
      type: "github",
    });
    stubApi((method, url) => {
      if (url.endsWith("/destinations"))
        return json(200, { data: [{ id: "gita", name: "gita", lists: [{ id: "site", name: "site" }] }] });
      if (method === "PATCH" && url.endsWith("/github/gate")) {
        gate = true;
        return json(200, { message: "Merge gate turned on.", data: github() });
      }
      return json(200, { data: { available: ["github"], integrations: [github()] } });
    });
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "GitHub" });
    const toggle = await within(card).findByRole("switch", { name: "Merge gate" });
    expect(toggle.getAttribute("aria-checked")).toBe("false");
    expect(within(card).getByText(/Pull requests of gita\/site whose preview is a page/)).toBeTruthy();
    await userEvent.click(toggle);
    expect(await screen.findByText("Merge gate turned on.")).toBeTruthy();
    expect(requests.find((request) => request.method === "PATCH")).toEqual({
      method: "PATCH",
      url: "/api/projects/p1/integrations/github/gate",
      body: { isEnabled: true },
    });
    await vi.waitFor(() =>
      expect(within(card).getByRole("switch", { name: "Merge gate" }).getAttribute("aria-checked")).toBe(
        "true",
      ),
    );
  });

  it("stays off when the server refuses, with its message", async () => {
    stubApi((method, url) => {
      if (url.endsWith("/destinations")) return json(200, { data: [] });
      if (method === "PATCH") return json(502, { code: "tracker-failed", message: "Something went wrong" });
      return json(200, {
        data: {
          available: ["github"],
          integrations: [
            {
              ...trello({
                isAuthorized: true,
                account: "gita",
                destination: { containerId: "gita", containerName: "gita", listId: "site", listName: "site" },
                autoCreate: false,
                mergeGate: false,
              }),
              type: "github",
            },
          ],
        },
      });
    });
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "GitHub" });
    await userEvent.click(await within(card).findByRole("switch", { name: "Merge gate" }));
    expect(await screen.findByText("Something went wrong")).toBeTruthy();
    expect(within(card).getByRole("switch", { name: "Merge gate" }).getAttribute("aria-checked")).toBe(
      "false",
    );
  });
});

describe("Asana in the Integrations panel", () => {
  it("chooses a project of the one workspace (no workspace to choose) and saves it", async () => {
    stubApi((method, url) => {
      if (url.endsWith("/destinations"))
        return json(200, {
          data: [
            {
              id: "w1",
              name: "Ada's Workspace",
              lists: [
                { id: "p1", name: "Website feedback" },
                { id: "p2", name: "Bugs" },
              ],
            },
          ],
        });
      if (method === "PUT") return json(200, { message: "Settings saved.", data: {} });
      return json(200, {
        data: {
          available: ["webhook", "asana"],
          integrations: [
            {
              ...trello({ isAuthorized: true, account: "Ada", destination: null, autoCreate: false }),
              type: "asana",
            },
          ],
        },
      });
    });
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "Asana" });
    expect(within(card).getByText("Connected as Ada.")).toBeTruthy();
    await userEvent.click(await within(card).findByRole("button", { name: "Save" }));
    expect(await within(card).findByText("Choose a project.")).toBeTruthy();
    expect(within(card).queryByLabelText("Workspace")).toBeNull();
    await userEvent.selectOptions(within(card).getByLabelText("Project"), "p2");
    await userEvent.click(within(card).getByRole("button", { name: "Save" }));
    await vi.waitFor(() =>
      expect(requests.find((request) => request.method === "PUT")).toEqual({
        method: "PUT",
        url: "/api/projects/p1/integrations/asana",
        body: { containerId: "w1", listId: "p2", autoCreate: false },
      }),
    );
  });

  it("its return route forwards the code and the state, then opens the project", async () => {
    stubApi(() => json(200, { message: "Asana connected successfully", projectId: "p9", data: {} }));
    wrap(
      <Routes>
        <Route path="/integration/asana" element={<AsanaReturnPage />} />
        <Route path="/project/:projectId" element={<p>The project</p>} />
      </Routes>,
      "/integration/asana?code=c0de&state=abc",
    );
    expect(await screen.findByText("The project")).toBeTruthy();
    expect(await screen.findByText("Asana connected successfully")).toBeTruthy();
    expect(requests).toEqual([
      { method: "POST", url: "/api/integrations/asana/connect", body: { state: "abc", code: "c0de" } },
    ]);
  });
});

describe("Jira in the Integrations panel", () => {
  it("asks to reconnect when Jira refused Redline's refresh token, and reconnects", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    stubApi((_method, url) => {
      if (url.endsWith("/jira/authorize"))
        return json(200, { data: { url: "https://auth.atlassian.example/authorize?state=s" } });
      if (url.endsWith("/destinations")) return json(502, { message: "Something went wrong" });
      return json(200, {
        data: {
          available: ["webhook", "jira"],
          integrations: [
            {
              ...trello({
                isAuthorized: true,
                account: "Jade",
                destination: null,
                autoCreate: false,
                needsReconnect: true,
              }),
              type: "jira",
            },
          ],
        },
      });
    });
    wrap(<IntegrationsPanel projectId="p1" />);
    const card = await screen.findByRole("region", { name: "Jira" });
    const prompt = within(card).getByText(/Jira no longer accepts Redline's access/);
    expect(prompt.closest("[role=alert]")).toBeTruthy();
    expect(within(card).queryByRole("button", { name: "Connect again" })).toBeNull();
    await userEvent.click(within(card).getByRole("button", { name: "Reconnect Jira" }));
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith("https://auth.atlassian.example/authorize?state=s"),
    );
  });
});

describe("Jira's return route", () => {
  it("forwards the code and the state, then opens the project; a refusal says why", async () => {
    stubApi(() => json(200, { message: "Jira connected successfully", projectId: "p9", data: {} }));
    wrap(
      <Routes>
        <Route path="/integration/jira" element={<JiraReturnPage />} />
        <Route path="/project/:projectId" element={<p>The project</p>} />
      </Routes>,
      "/integration/jira?state=abc&code=c0de",
    );
    expect(await screen.findByText("The project")).toBeTruthy();
    expect(await screen.findByText("Jira connected successfully")).toBeTruthy();
    expect(requests).toEqual([
      { method: "POST", url: "/api/integrations/jira/connect", body: { state: "abc", code: "c0de" } },
    ]);
    cleanup();
    // Atlassian sends `error=access_denied` and no code when the person cancels.
    stubApi(() => json(500, {}));
    wrap(
      <Routes>
        <Route path="/integration/jira" element={<JiraReturnPage />} />
      </Routes>,
      "/integration/jira?state=abc&error=access_denied",
    );
    expect(await screen.findByText("Jira was not connected: Jira did not grant access.")).toBeTruthy();
    expect(requests).toEqual([]);
  });
});

describe("Trello's return route", () => {
  it("forwards the fragment's token and the state to the callback, then opens the project", async () => {
    stubApi(() => json(200, { message: "Trello connected successfully", projectId: "p9", data: {} }));
    wrap(
      <Routes>
        <Route path="/integration/trello" element={<TrelloReturnPage />} />
        <Route path="/project/:projectId" element={<p>The project</p>} />
      </Routes>,
      "/integration/trello?state=abc#token=ATTA123",
    );
    expect(await screen.findByText("The project")).toBeTruthy();
    expect(await screen.findByText("Trello connected successfully")).toBeTruthy();
    expect(requests).toEqual([
      { method: "POST", url: "/api/integrations/trello/connect", body: { state: "abc", token: "ATTA123" } },
    ]);
  });

  it("says 'Something went wrong!' when access was denied or the state refused", async () => {
    stubApi(() =>
      json(400, { code: "invalid-state", message: "This connection link is not valid any more." }),
    );
    wrap(<TrelloReturnPage />, "/integration/trello?state=abc#error=access_denied");
    expect(await screen.findByRole("heading", { name: "Something went wrong!" })).toBeTruthy();
    expect(requests).toEqual([]);
    cleanup();
    wrap(<TrelloReturnPage />, "/integration/trello?state=abc#token=ATTA123");
    expect(await screen.findByText(/This connection link is not valid any more/)).toBeTruthy();
  });
});

describe("Create card on a thread", () => {
  it("creates a card in a connected tracker and shows its link afterwards", async () => {
    let cards: object[] = [];
    stubApi((method, url) => {
      if (url.endsWith("/cards") && method === "POST") {
        cards = [
          {
            id: "k1",
            tracker: "trello",
            subject: "comment",
            subjectId: "c1",
            url: "https://trello.example/c/x",
            status: "created",
          },
        ];
        return json(201, { message: "Comment added to Trello", data: cards[0] });
      }
      if (url.endsWith("/cards")) return json(200, { data: cards });
      return json(200, {
        data: {
          available: ["trello"],
          integrations: [
            trello({
              isAuthorized: true,
              account: "T",
              destination: { containerId: "b1", listId: "l1" },
              autoCreate: false,
            }),
          ],
        },
      });
    });
    wrap(<TrackerCardActions projectId="p1" subject="comment" subjectId="c1" canManage />);
    await userEvent.click(await screen.findByRole("button", { name: "Create Trello card" }));
    expect(await screen.findByText("Comment added to Trello")).toBeTruthy();
    const link = await screen.findByRole("link", { name: "Open in Trello" });
    expect(link.getAttribute("href")).toBe("https://trello.example/c/x");
    expect(screen.queryByRole("button", { name: "Create Trello card" })).toBeNull();
  });

  it("shows only the link to someone who may not manage integrations", async () => {
    stubApi(() =>
      json(200, {
        data: [
          {
            id: "k1",
            tracker: "clickup",
            subject: "comment",
            subjectId: "c1",
            url: "https://cu.example/t/1",
            status: "created",
          },
        ],
      }),
    );
    wrap(<TrackerCardActions projectId="p1" subject="comment" subjectId="c1" canManage={false} />);
    expect(await screen.findByRole("link", { name: "Open in ClickUp" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Delete/ })).toBeNull();
    expect(requests.map((request) => request.url)).toEqual(["/api/projects/p1/integrations/cards"]);
  });
});
