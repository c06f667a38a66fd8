import type { Comment } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type CommentScope,
  commentsKey,
  FIRST_COMMENTS,
  type FirstComments,
  firstCommentsKey,
  removeComment,
  shownComments,
  upsertComment,
  useVersionComments,
} from "./comment-queries.ts";

const scope = { projectId: "p1", versionId: "v1" };
const comment = (id: string, text = id) =>
  ({
    id,
    createdAt: `2026-01-0${id.length}`,
    versionId: "v1",
    thread: [{ comment: text }],
  }) as unknown as Comment;
const [a, b, c] = [comment("a"), comment("b"), comment("c")];

/** Answers each GET as the test says, recording the paths asked for. */
function server() {
  const asked: string[] = [];
  const answers = new Map<string, (body: unknown) => void>();
  vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
    const path = String(input);
    asked.push(path);
    return new Promise<Response>((resolve) => answers.set(path, (body) => resolve(Response.json(body))));
  });
  const answer = async (path: string, body: unknown) => {
    await waitFor(() => expect(answers.has(path)).toBe(true));
    answers.get(path)!(body);
  };
  return { asked, answer };
}

function render(client: QueryClient, forScope: CommentScope = scope, wholeAfter = true) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(({ after }) => useVersionComments(forScope, true, after), {
    wrapper,
    initialProps: { after: wholeAfter },
  });
}

const whole = "/api/versions/v1/comments";
const first = `${whole}?first=${FIRST_COMMENTS}`;

afterEach(() => vi.unstubAllGlobals());

describe("what a review page shows of a version's comments", () => {
  it("shows the whole list once in, else the first page, partial while it holds fewer than the total", () => {
    expect(shownComments([a, b, c], { comments: [a], total: 3 })).toEqual({
      comments: [a, b, c],
      total: 3,
      partial: false,
    });
    expect(shownComments(undefined, { comments: [a], total: 3 })).toEqual({
      comments: [a],
      total: 3,
      partial: true,
    });
    expect(shownComments(undefined, { comments: [a, b], total: 2 })).toEqual({
      comments: [a, b],
      total: 2,
      partial: false,
    });
    expect(shownComments(undefined, undefined)).toEqual({ comments: undefined, total: 0, partial: false });
  });

  it("shows the first page, then asks for the whole list and shows it", async () => {
    const { asked, answer } = server();
    const view = render(new QueryClient());
    expect(view.result.current).toMatchObject({ comments: undefined, isPending: true });
    await answer(first, { data: [a], total: 3 });
    await waitFor(() =>
      expect(view.result.current).toMatchObject({ comments: [a], total: 3, partial: true, isPending: false }),
    );
    // The long answer is asked for only once the page is in, so its parse comes after the page is drawn.
    expect(asked).toEqual([first, whole]);
    await answer(whole, { data: [a, b, c] });
    await waitFor(() => expect(view.result.current).toMatchObject({ comments: [a, b, c], partial: false }));
  });

  it("waits for what the page says to come first before asking for the whole list", async () => {
    const { asked, answer } = server();
    const view = render(new QueryClient(), scope, false);
    await answer(first, { data: [a], total: 3 });
    await waitFor(() => expect(view.result.current).toMatchObject({ comments: [a], partial: true }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toEqual([first]);
    view.rerender({ after: true });
    await answer(whole, { data: [a, b, c] });
    await waitFor(() => expect(view.result.current).toMatchObject({ comments: [a, b, c], partial: false }));
  });

  it("asks for the whole list when the first page cannot be read", async () => {
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return String(input) === first
        ? Response.json({ message: "No." }, { status: 400 })
        : Response.json({ data: [a, b] });
    });
    const view = render(new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    await waitFor(() => expect(view.result.current).toMatchObject({ comments: [a, b], partial: false }));
    expect(asked).toEqual([first, whole]);
  });

  it("asks for no first page when the list is kept, nor for a link guest", async () => {
    const { asked } = server();
    const client = new QueryClient();
    client.setQueryData(commentsKey(scope), [a, b]);
    const view = render(client);
    expect(view.result.current).toMatchObject({ comments: [a, b], isPending: false });
    render(new QueryClient(), { ...scope, guestIdentity: "g1" });
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked.some((path) => path.includes("?first="))).toBe(false);
  });
});

describe("events while only the first page is in", () => {
  const page = (client: QueryClient) => client.getQueryData<FirstComments>(firstCommentsKey(scope));

  it("take a deleted comment out of the page and its total, and show a changed one as it now reads", () => {
    const client = new QueryClient();
    client.setQueryData<FirstComments>(firstCommentsKey(scope), { comments: [a, b], total: 3 });
    upsertComment(client, scope, comment("b", "edited"));
    expect(page(client)!.comments[1]!.thread[0]!.comment).toBe("edited");
    removeComment(client, scope, "a");
    // One beyond the page: its removal waits for the list (the page cannot tell whether it was there).
    removeComment(client, scope, "zzz");
    expect(page(client)).toEqual({ comments: [comment("b", "edited")], total: 2 });
    // A new one waits for the whole list (the event restarts its read).
    upsertComment(client, scope, comment("dddd"));
    expect(page(client)!.comments).toHaveLength(1);
  });

  it("leave the page alone once the whole list is in", () => {
    const client = new QueryClient();
    client.setQueryData<FirstComments>(firstCommentsKey(scope), { comments: [a], total: 3 });
    client.setQueryData(commentsKey(scope), [a, b, c]);
    removeComment(client, scope, "a");
    expect(page(client)).toEqual({ comments: [a], total: 3 });
    expect(client.getQueryData<Comment[]>(commentsKey(scope))).toEqual([b, c]);
  });
});
