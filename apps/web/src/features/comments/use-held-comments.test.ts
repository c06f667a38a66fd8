import type { Comment } from "@redline/shared";
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useHeldComments } from "./use-held-comments.ts";

const comment = (id: string, authorId = "other"): Comment =>
  ({ id, thread: [{ author: { id: authorId } }] }) as unknown as Comment;
const isMine = (item: Comment) =>
  (item.thread[0] as unknown as { author: { id: string } }).author.id === "me";

function setup(initial: Comment[]) {
  return renderHook(({ all }) => useHeldComments(all, false, isMine), { initialProps: { all: initial } });
}
const ids = (comments: Comment[]) => comments.map((item) => item.id);

describe("'N new': others' comments wait while the reviewer types", () => {
  it("shows new comments at once when nobody is typing", () => {
    const view = setup([comment("a")]);
    view.rerender({ all: [comment("a"), comment("b")] });
    expect(ids(view.result.current.shown)).toEqual(["a", "b"]);
    expect(view.result.current.heldCount).toBe(0);
  });

  it("holds others' new comments while a draft is open, and shows them when asked", () => {
    const view = setup([comment("a")]);
    act(() => view.result.current.setNewDraft(true));
    view.rerender({ all: [comment("a"), comment("b"), comment("c")] });
    expect(ids(view.result.current.shown)).toEqual(["a"]);
    expect(view.result.current.heldCount).toBe(2);
    act(() => view.result.current.release());
    expect(ids(view.result.current.shown)).toEqual(["a", "b", "c"]);
  });

  it("shows the held comments once the reviewer stops typing (every draft closed)", () => {
    const view = setup([comment("a")]);
    act(() => {
      view.result.current.setNewDraft(true);
      view.result.current.setReplyDraft(true);
    });
    view.rerender({ all: [comment("a"), comment("b")] });
    act(() => view.result.current.setNewDraft(false));
    expect(view.result.current.heldCount).toBe(1);
    act(() => view.result.current.setReplyDraft(false));
    expect(view.result.current.heldCount).toBe(0);
    expect(ids(view.result.current.shown)).toEqual(["a", "b"]);
  });

  it("never holds the reviewer's own comments, nor one this tab just wrote", () => {
    const view = setup([comment("a")]);
    act(() => view.result.current.setReplyDraft(true));
    act(() => view.result.current.markKnown("c"));
    view.rerender({ all: [comment("a"), comment("b", "me"), comment("c")] });
    expect(ids(view.result.current.shown)).toEqual(["a", "b", "c"]);
  });

  it("holds nothing on the first load, even while typing", () => {
    const view = renderHook(({ all, isLoading }) => useHeldComments(all, isLoading, isMine), {
      initialProps: { all: [] as Comment[], isLoading: true },
    });
    act(() => view.result.current.setNewDraft(true));
    view.rerender({ all: [comment("a"), comment("b")], isLoading: false });
    expect(ids(view.result.current.shown)).toEqual(["a", "b"]);
  });
});
