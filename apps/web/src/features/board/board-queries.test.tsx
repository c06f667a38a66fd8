import type { Board } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "../billing/billing-fixtures.ts";
import { boardKey } from "./board-cache.ts";
import { board, ticket } from "./board-fixtures.ts";
import { useMoveTicket } from "./board-queries.ts";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const moving = ticket("t1", { listId: "a", sortKey: "a0" });

function setup(answer: { status?: number; body: unknown }) {
  const sent = stubApi({
    "POST /api/tickets/t1/move": () => new Promise((resolve) => setTimeout(() => resolve(answer), 20)),
  });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(
    boardKey("p1"),
    board({ tickets: [moving, ticket("t2", { listId: "b", sortKey: "a1" })] }),
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useMoveTicket(), { wrapper });
  const where = () => client.getQueryData<Board>(boardKey("p1"))!.tickets.find((t) => t.id === "t1")!;
  return { sent, result, where };
}

describe("moving a card", () => {
  it("shows the move at once and sends one request with the neighbours' ids", async () => {
    const { sent, result, where } = setup({
      body: { data: { ...moving, listId: "b", sortKey: "a2" } },
    });
    act(() =>
      result.current.mutate({ ticket: moving, listId: "b", afterId: "t2", beforeId: null, sortKey: "a2" }),
    );
    await waitFor(() => expect(where()).toMatchObject({ listId: "b", sortKey: "a2" }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(sent.filter((request) => request.method === "POST")).toEqual([
      { method: "POST", path: "/api/tickets/t1/move", body: { listId: "b", afterId: "t2", beforeId: null } },
    ]);
  });

  it("puts the card back where it was when the move is refused", async () => {
    const { result, where } = setup({
      status: 403,
      body: { code: "forbidden", message: "You may not move this ticket." },
    });
    act(() =>
      result.current.mutate({ ticket: moving, listId: "b", afterId: "t2", beforeId: null, sortKey: "a2" }),
    );
    await waitFor(() => expect(where().listId).toBe("b"));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(where()).toMatchObject({ listId: "a", sortKey: "a0" });
  });
});
