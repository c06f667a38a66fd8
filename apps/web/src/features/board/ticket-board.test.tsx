import { type Board, MAX_TICKET_DESCRIPTION, type TicketDetail, type TicketEntry } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UpgradePrompt } from "../../components/upgrade-prompt.tsx";
import { closeUpgradePrompt } from "../../components/upgrade-prompt-store.ts";
import { stubApi } from "../billing/billing-fixtures.ts";
import { board, list, NO_TICKET, ticket } from "./board-fixtures.ts";
import { TicketBoard } from "./ticket-board.tsx";

// The project's room would open a WebSocket; nothing is realtime here.
vi.mock("../../lib/realtime.ts", () => ({ realtime: () => ({ subscribe: () => () => undefined }) }));

afterEach(() => {
  act(() => closeUpgradePrompt());
  cleanup();
  vi.unstubAllGlobals();
});

function renderBoard(
  data: Board,
  { path = "/project/p1", routes = {} as Parameters<typeof stubApi>[0] } = {},
) {
  const sent = stubApi({ "GET /api/projects/p1/board": { body: { data } }, ...routes });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <TicketBoard projectId="p1" toolbar={<button type="button">Install widget</button>} />
        <UpgradePrompt />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

const editable = () =>
  board({
    tickets: [
      ticket("t1", { number: 1, title: "Logo is blurry" }),
      ticket("t2", { number: 2, title: "Footer overlaps", listId: "b" }),
      ticket("r1", { number: 3, title: "Report from the widget", listId: null, intake: "triage" }),
    ],
  });

describe("controls follow the abilities the server sends", () => {
  it("shows every board, list, card and triage control to someone who may use them", async () => {
    renderBoard(editable());
    await screen.findByRole("button", { name: "Rename list A" });
    expect(screen.getByRole("button", { name: "Add list" })).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Add a ticket" })).toHaveLength(2);
    expect(screen.getByRole("button", { name: "Move list A" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "List actions for B" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Move ticket #1: Logo is blurry" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Accept report #3 into a list" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Mark report #3 as a duplicate" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Reject report #3" })).toBeTruthy();
    // The toolbar slot holds what the page puts there.
    expect(screen.getByRole("button", { name: "Install widget" })).toBeTruthy();
  });

  it("shows the cards but no controls to someone who may only read", async () => {
    const data = editable();
    renderBoard({
      ...data,
      abilities: { createList: false, createTicket: false, triage: false, manageWidget: false },
      lists: data.lists.map((entry) =>
        list(entry.id, entry.sortKey, {
          abilities: { rename: false, move: false, delete: false, addTicket: false },
        }),
      ),
      tickets: data.tickets.map((entry) => ({ ...entry, abilities: NO_TICKET })),
    });
    await screen.findByRole("button", { name: "Logo is blurry" });
    expect(screen.getByRole("button", { name: "Report from the widget" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "A" })).toBeTruthy();
    for (const name of [
      /^Rename list/,
      "Add list",
      "Add a ticket",
      /^Move /,
      /^List actions/,
      /^Accept/,
      /^Reject/,
    ])
      expect(screen.queryByRole("button", { name })).toBeNull();
  });

  it("opens the ticket named by ?t= with the controls its abilities allow", async () => {
    const data = editable();
    const detail: TicketDetail = {
      ...data.tickets[0]!,
      description: "Looks soft on retina screens.",
      thread: [],
    };
    renderBoard(data, {
      path: "/project/p1?t=t1",
      routes: { "GET /api/tickets/t1": { body: { data: detail } } },
    });
    const panel = await screen.findByRole("dialog", { name: "Ticket #1" });
    await within(panel).findByRole("textbox", { name: "Title" });
    expect(within(panel).getByRole("combobox", { name: "Assignee" })).toBeTruthy();
    expect(within(panel).getByLabelText("Due date")).toBeTruthy();
    expect(within(panel).getByRole("button", { name: "Resolve" })).toBeTruthy();
    expect(within(panel).getByRole("combobox", { name: "Reply" })).toBeTruthy();
    expect(within(panel).getByRole("button", { name: "Delete ticket" })).toBeTruthy();
  });

  it("plays an entry's video, and offers recording to whoever may attach to the ticket", async () => {
    const data = editable();
    const entry: TicketEntry = {
      id: "e1",
      createdAt: "2026-11-01T10:00:00.000Z",
      editedAt: null,
      userId: null,
      author: { uid: null, displayName: "Gail Guest", photoURL: null, isGuest: true },
      comment: "See the recording",
      attachments: [],
      hasVideo: true,
      videoURL: "/api/tickets/t1/entries/e1/video",
      videoPosterURL: "/api/tickets/t1/entries/e1/poster",
      videoDuration: 3.2,
      videoStatus: "ready",
      abilities: { edit: false, delete: false },
    };
    const processing: TicketEntry = {
      ...entry,
      id: "e2",
      comment: "And another",
      videoURL: null,
      videoPosterURL: null,
      videoStatus: "processing",
    };
    const detail: TicketDetail = { ...data.tickets[0]!, thread: [entry, processing] };
    renderBoard(data, {
      path: "/project/p1?t=t1",
      routes: { "GET /api/tickets/t1": { body: { data: detail } } },
    });
    const panel = await screen.findByRole("dialog", { name: "Ticket #1" });
    const video = await within(panel).findByLabelText("Video message, 00:03");
    expect(video.getAttribute("src")).toBe("/api/tickets/t1/entries/e1/video");
    expect(within(panel).getByText("Processing video (00:03)...")).toBeTruthy();
    expect(within(panel).getByRole("button", { name: "Record a video" })).toBeTruthy();
    cleanup();

    renderBoard(data, {
      path: "/project/p1?t=t1",
      routes: {
        "GET /api/tickets/t1": {
          body: { data: { ...detail, abilities: { ...detail.abilities, attach: false } } },
        },
      },
    });
    const readOnly = await screen.findByRole("dialog", { name: "Ticket #1" });
    await within(readOnly).findByLabelText("Video message, 00:03");
    expect(within(readOnly).queryByRole("button", { name: "Record a video" })).toBeNull();
  });

  it("shows a read-only ticket without its controls", async () => {
    const data = editable();
    const detail: TicketDetail = { ...data.tickets[0]!, abilities: NO_TICKET, thread: [] };
    renderBoard(data, {
      path: "/project/p1?t=t1",
      routes: { "GET /api/tickets/t1": { body: { data: detail } } },
    });
    const panel = await screen.findByRole("dialog", { name: "Ticket #1" });
    await within(panel).findByRole("heading", { name: "Logo is blurry" });
    await within(panel).findByText("Activity");
    expect(within(panel).queryByRole("textbox", { name: "Title" })).toBeNull();
    expect(within(panel).queryByRole("combobox")).toBeNull();
    expect(within(panel).queryByRole("button", { name: "Resolve" })).toBeNull();
    expect(within(panel).queryByRole("button", { name: "Delete ticket" })).toBeNull();
  });
});

describe("deleting a list", () => {
  it("asks first, saying how many tickets go with it, then sends the delete", async () => {
    const user = userEvent.setup();
    const sent = renderBoard(
      board({ tickets: [ticket("t1"), ticket("t2"), ticket("t3", { listId: "b" })] }),
      { routes: { "DELETE /api/lists/a": { body: { data: { deleted: true } } } } },
    );
    await user.click(await screen.findByRole("button", { name: "List actions for A" }));
    await user.click(await screen.findByRole("menuitem", { name: "Delete list" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete the list “A”?" });
    expect(dialog.textContent).toContain("Its 2 tickets go with it");
    await user.click(within(dialog).getByRole("button", { name: "Delete list and 2 tickets" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "A" })).toBeNull());
    expect(screen.getByRole("region", { name: "B" })).toBeTruthy();
    expect(sent.filter((request) => request.method === "DELETE").map((request) => request.path)).toEqual([
      "/api/lists/a",
    ]);
  });
});

describe("the board's filters", () => {
  it("narrows the cards by search and by filter, and says when nothing matches", async () => {
    const user = userEvent.setup();
    renderBoard(editable());
    await screen.findByRole("button", { name: "Logo is blurry" });
    await user.type(screen.getByRole("searchbox", { name: "Search tickets" }), "footer");
    await waitFor(() => expect(screen.queryByRole("button", { name: "Logo is blurry" })).toBeNull());
    expect(screen.getByRole("button", { name: "Footer overlaps" })).toBeTruthy();
    expect(screen.getByText("No tickets match the filters.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await screen.findByRole("button", { name: "Logo is blurry" });
    await user.selectOptions(screen.getByRole("combobox", { name: "Status" }), "true");
    await waitFor(() => expect(screen.queryByRole("button", { name: "Footer overlaps" })).toBeNull());
  });
});

describe("adding a ticket", () => {
  it("sends the list and title, and a plan limit's 402 opens the upgrade prompt", async () => {
    const user = userEvent.setup();
    const sent = renderBoard(editable(), {
      routes: {
        "POST /api/projects/p1/tickets": {
          status: 402,
          body: { code: "tickets", message: "The free plan includes 20 tickets per project." },
        },
      },
    });
    const [first] = await screen.findAllByRole("button", { name: "Add a ticket" });
    await user.click(first!);
    await user.type(
      screen.getByRole("textbox", { name: "Title of the new ticket in A" }),
      "Menu flickers{Enter}",
    );
    const dialog = await screen.findByRole("dialog", { name: "Upgrade your plan" });
    expect(dialog.textContent).toContain("The free plan includes 20 tickets per project.");
    expect(sent.find((request) => request.method === "POST")?.body).toEqual({
      listId: "a",
      title: "Menu flickers",
    });
  });
});

describe("a ticket's title", () => {
  it("says a new ticket needs a title instead of sending nothing", async () => {
    const user = userEvent.setup();
    const sent = renderBoard(editable());
    const [first] = await screen.findAllByRole("button", { name: "Add a ticket" });
    await user.click(first!);
    const title = screen.getByRole("textbox", { name: "Title of the new ticket in A" });
    await user.click(screen.getByRole("button", { name: "Add ticket" }));
    expect(screen.getByText("A ticket needs a title.")).toBeTruthy();
    expect(title.getAttribute("aria-invalid")).toBe("true");
    await user.type(title, "   {Enter}");
    expect(sent.filter((request) => request.method === "POST")).toEqual([]);
    // Typing a title takes the message away.
    await user.type(title, "Menu");
    expect(screen.queryByText("A ticket needs a title.")).toBeNull();
  });

  it("says an edited ticket needs a title instead of silently putting the old one back", async () => {
    const user = userEvent.setup();
    const data = editable();
    const sent = renderBoard(data, {
      path: "/project/p1?t=t1",
      routes: { "GET /api/tickets/t1": { body: { data: { ...data.tickets[0]!, thread: [] } } } },
    });
    const panel = await screen.findByRole("dialog", { name: "Ticket #1" });
    const title = await within(panel).findByRole("textbox", { name: "Title" });
    await user.clear(title);
    await user.keyboard("{Enter}");
    expect(within(panel).getByText("A ticket needs a title.")).toBeTruthy();
    expect(title.getAttribute("aria-invalid")).toBe("true");
    expect(sent.filter((request) => request.method === "PATCH")).toEqual([]);
  });
});

describe("text typed while a ticket is added, and a description over its limit", () => {
  it("keeps the next title typed while the previous ticket was being added", async () => {
    const user = userEvent.setup();
    let answer!: (value: { status: number; body: unknown }) => void;
    renderBoard(editable(), {
      routes: { "POST /api/projects/p1/tickets": () => new Promise((resolve) => (answer = resolve)) },
    });
    const [first] = await screen.findAllByRole("button", { name: "Add a ticket" });
    await user.click(first!);
    const title = screen.getByRole("textbox", {
      name: "Title of the new ticket in A",
    }) as HTMLTextAreaElement;
    await user.type(title, "Menu flickers{Enter}");
    await waitFor(() => expect(answer).toBeTypeOf("function"));
    await user.clear(title);
    await user.type(title, "Logo too small");
    answer({ status: 201, body: { data: ticket("t9", { number: 9, title: "Menu flickers" }) } });
    await waitFor(() => expect(screen.getByRole("button", { name: "Add ticket" })).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(title.value).toBe("Logo too small");
  });

  it("keeps a description over the limit unsaved and says what is allowed", async () => {
    const data = editable();
    const sent = renderBoard(data, {
      path: "/project/p1?t=t1",
      routes: { "GET /api/tickets/t1": { body: { data: { ...data.tickets[0]!, thread: [] } } } },
    });
    const panel = await screen.findByRole("dialog", { name: "Ticket #1" });
    const description = (await within(panel).findByRole("textbox", {
      name: "Description",
    })) as HTMLTextAreaElement;
    expect(description.hasAttribute("maxlength")).toBe(false);
    fireEvent.change(description, { target: { value: "d".repeat(MAX_TICKET_DESCRIPTION + 1) } });
    fireEvent.blur(description);
    expect(within(panel).getByRole("alert").textContent).toBe(
      "The description can be at most 10,000 characters.",
    );
    expect(description.value).toHaveLength(MAX_TICKET_DESCRIPTION + 1);
    expect(sent.filter((request) => request.method === "PATCH")).toEqual([]);
  });
});

describe("a list's accessible name", () => {
  it("is the list's name, with renaming a separate control", async () => {
    renderBoard(editable());
    expect(await screen.findByRole("region", { name: "A" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "A" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Rename list A" })).toBeTruthy();
  });
});

describe("a ticket of another project", () => {
  it("opens only in its own project: this board says where it is instead of showing it", async () => {
    const data = editable();
    const elsewhere: TicketDetail = {
      ...ticket("x1", { number: 7, title: "Other project's bug" }),
      projectId: "p2",
      thread: [],
    };
    renderBoard(data, {
      path: "/project/p1?t=x1",
      routes: { "GET /api/tickets/x1": { body: { data: elsewhere } } },
    });
    const panel = await screen.findByRole("dialog", { name: "Ticket" });
    await within(panel).findByText("This ticket belongs to another project.");
    const link = within(panel).getByRole("link", { name: "Open it in its project" });
    expect(link.getAttribute("href")).toBe("/project/p2?t=x1");
    expect(within(panel).queryByRole("textbox", { name: "Title" })).toBeNull();
    expect(within(panel).queryByText("Other project's bug")).toBeNull();
  });
});
