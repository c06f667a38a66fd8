import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "../billing/billing-fixtures.ts";
import { NewConversation } from "./new-conversation.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("new conversation", () => {
  it("starts a conversation with the chosen people of a project", async () => {
    const sent = stubApi({
      "GET /api/projects": { body: { data: [{ id: "p1", title: "Website" }] } },
      "GET /api/conversations/people": {
        body: { data: [{ uid: "bob", displayName: "Bob Babbage", photoURL: null }] },
      },
      "POST /api/conversations": { status: 201, body: { data: { id: "c9" } } },
    });
    const onStarted = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <NewConversation onStarted={onStarted} />
      </QueryClientProvider>,
    );
    await screen.findByRole("option", { name: "Website" });
    fireEvent.change(screen.getByLabelText("Project"), { target: { value: "p1" } });
    const start = screen.getByRole("button", { name: "Start conversation" }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    fireEvent.click(await screen.findByLabelText(/Bob Babbage/));
    fireEvent.click(start);
    await vi.waitFor(() => expect(onStarted).toHaveBeenCalledWith({ id: "c9" }));
    expect(sent.find((request) => request.method === "POST")?.body).toEqual({
      projectId: "p1",
      participantIds: ["bob"],
    });
  });
});
