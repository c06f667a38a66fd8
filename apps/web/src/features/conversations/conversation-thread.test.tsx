import { CONVERSATION_TEXTS, type Conversation, MAX_CONVERSATION_MESSAGE } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectHeldOverLimit } from "../../components/text-limit-testing.ts";
import { stubApi } from "../billing/billing-fixtures.ts";
import { ConversationList } from "./conversation-list.tsx";
import { memberSource } from "./conversation-queries.ts";
import { ConversationThread } from "./conversation-thread.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const person = (uid: string, displayName: string) => ({
  uid,
  displayName,
  photoURL: null,
  isAnonymous: false,
  isGuest: false,
});

const conversation: Conversation = {
  id: "c1",
  kind: "project",
  projectId: "p1",
  projectTitle: "Website",
  participants: [person("me", "Mia Self"), person("ada", "Ada Lovelace")],
  selfUid: "me",
  title: "Ada Lovelace",
  preview: "Hello",
  message: "Hello",
  senderId: "ada",
  attachments: [],
  read: false,
  unread: 1,
  createdAt: "2026-11-26T10:00:00.000Z",
  updatedAt: "2026-11-26T10:00:00.000Z",
  abilities: { send: true, attach: true },
};

const message = (id: string, senderId: string, text: string) => ({
  id,
  conversationId: "c1",
  senderId,
  senderName: senderId === "me" ? "Mia Self" : "Ada Lovelace",
  message: text,
  attachments: [],
  createdAt: "2026-11-26T10:00:00.000Z",
});

function renderThread(value: Conversation = conversation) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ConversationThread source={memberSource(value.id)} conversation={value} />
    </QueryClientProvider>,
  );
}

describe("conversation thread", () => {
  it("gives an attachment's size in base 1024 with two decimals (SPEC §9)", async () => {
    const withFile = {
      ...message("m1", "ada", "The brief"),
      attachments: [{ name: "brief.pdf", size: 1560, type: "application/pdf", path: "attachments/p1/abc" }],
    };
    stubApi({
      "GET /api/conversations/c1/messages": { body: { data: [withFile], hasMore: false } },
      "POST /api/conversations/c1/read": { body: { data: { read: true } } },
    });
    renderThread();
    const file = await screen.findByRole("button", { name: /brief\.pdf/ });
    expect(file.textContent).toContain("1.52 KB");
  });

  it("shows the messages, marks them read and sends a new one", async () => {
    const sent = stubApi({
      "GET /api/conversations/c1/messages": {
        body: { data: [message("m1", "ada", "Hello"), message("m2", "me", "Hi Ada")], hasMore: false },
      },
      "POST /api/conversations/c1/read": { body: { data: { read: true } } },
      "POST /api/conversations/c1/messages": { status: 201, body: { data: message("m3", "me", "Thanks") } },
    });
    renderThread();
    expect(await screen.findByText("Hello")).toBeTruthy();
    expect(screen.getByText("You")).toBeTruthy();
    expect(sent.some((request) => request.path === "/api/conversations/c1/read")).toBe(true);
    const send = screen.getByRole("button", { name: "Send" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "  Thanks  " } });
    fireEvent.click(send);
    await vi.waitFor(() =>
      expect(
        sent.find((request) => request.method === "POST" && request.path.endsWith("/messages"))?.body,
      ).toEqual({ message: "Thanks", attachments: [] }),
    );
  });

  it("keeps a message over the limit whole and will not send it until it fits", async () => {
    stubApi({ "GET /api/conversations/c1/messages": { body: { data: [], hasMore: false } } });
    renderThread();
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    const send = screen.getByRole("button", { name: "Send" }) as HTMLButtonElement;
    expectHeldOverLimit(box, send, MAX_CONVERSATION_MESSAGE, "The message can be at most 4,000 characters.");
  });

  it("empties the box when the message is answered, keeping what was typed meanwhile", async () => {
    let answer!: (value: { status: number; body: unknown }) => void;
    stubApi({
      "GET /api/conversations/c1/messages": { body: { data: [], hasMore: false } },
      "POST /api/conversations/c1/messages": () => new Promise((resolve) => (answer = resolve)),
    });
    renderThread();
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "First" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await vi.waitFor(() => expect(answer).toBeTypeOf("function"));
    fireEvent.change(box, { target: { value: "Second, typed while the first was on its way" } });
    answer({ status: 201, body: { data: message("m3", "me", "First") } });
    await vi.waitFor(() =>
      expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(false),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(box.value).toBe("Second, typed while the first was on its way");
  });

  it("says where a conversation begins, and refuses a forbidden file before uploading it", async () => {
    const sent = stubApi({
      "GET /api/conversations/c1/messages": { body: { data: [], hasMore: false } },
    });
    renderThread({ ...conversation, unread: 0 });
    expect(await screen.findByText(CONVERSATION_TEXTS.beginning)).toBeTruthy();
    const input = screen.getByTestId("message-file");
    fireEvent.change(input, { target: { files: [new File(["MZ"], "setup.exe")] } });
    expect((await screen.findByRole("alert")).textContent).toBe(CONVERSATION_TEXTS.forbiddenType);
    expect(sent.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("shows an error with a way to try again", async () => {
    stubApi({ "GET /api/conversations/c1/messages": { status: 500, body: { message: "Down" } } });
    renderThread({ ...conversation, unread: 0 });
    expect(await screen.findByText("Messages could not be loaded.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});

describe("conversation list", () => {
  it("lists each conversation's title, preview and unread count", () => {
    const onOpen = vi.fn();
    render(<ConversationList conversations={[conversation]} onOpen={onOpen} />);
    expect(screen.getByText("Ada Lovelace")).toBeTruthy();
    expect(screen.getByText("Website")).toBeTruthy();
    expect(screen.getByText("1")).toBeTruthy();
    fireEvent.click(screen.getByRole("button"));
    expect(onOpen).toHaveBeenCalledWith(conversation);
  });
});
