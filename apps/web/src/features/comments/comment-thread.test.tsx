import type { Comment, CommentAbilities, EntryAbilities } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CommentThread } from "./comment-thread.tsx";

afterEach(cleanup);

const NONE: CommentAbilities = { reply: false, attach: false, resolve: false, move: false };
const entry = (id: string, text: string, abilities: EntryAbilities) => ({
  id,
  createdAt: "2026-11-24T10:00:00.000Z",
  editedAt: null,
  userId: null,
  author: { uid: null, displayName: `Author of ${text}`, photoURL: null, isGuest: false },
  comment: text,
  attachments: [{ name: "spec.pdf", size: 1560, type: "application/pdf", path: "attachments/p1/abc" }],
  abilities,
});

function renderThread(abilities: CommentAbilities, entries: ReturnType<typeof entry>[]) {
  const comment = {
    id: "c1",
    projectId: "p1",
    versionId: "v1",
    isResolved: false,
    thread: entries,
    abilities,
  } as unknown as Comment;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <CommentThread
        comment={comment}
        number={1}
        scope={{ projectId: "p1", versionId: "v1" }}
        people={null}
        onBack={() => {}}
        onDraftChange={() => {}}
      />
    </QueryClientProvider>,
  );
}

describe("a comment's controls follow the abilities the server sent", () => {
  it("shows edit and delete only on the entries that allow them", () => {
    renderThread(NONE, [
      entry("e1", "first", { edit: true, delete: true }),
      entry("e2", "second", { edit: false, delete: true }),
      entry("e3", "third", { edit: false, delete: false }),
    ]);
    expect(screen.getAllByRole("button", { name: "Edit comment" })).toHaveLength(1);
    expect(screen.getAllByRole("button", { name: "Delete comment" })).toHaveLength(2);
  });

  it("offers reply, resolve and attachment downloads only when the comment allows them", () => {
    renderThread(NONE, [entry("e1", "first", { edit: false, delete: false })]);
    expect(screen.queryByRole("button", { name: /Resolve/ })).toBeNull();
    expect(screen.queryByRole("combobox", { name: "Reply" })).toBeNull();
    expect(screen.queryByRole("link", { name: /spec\.pdf/ })).toBeNull();
    cleanup();

    renderThread({ reply: true, attach: true, resolve: true, move: true }, [
      entry("e1", "first", { edit: false, delete: false }),
    ]);
    expect(screen.getByRole("button", { name: /Resolve/ })).toBeTruthy();
    expect(screen.getByRole("combobox", { name: "Reply" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /spec\.pdf/ })).toBeTruthy();
  });

  it("gives an attachment's size in base 1024 with two decimals, as everywhere (SPEC §9)", () => {
    renderThread({ reply: true, attach: true, resolve: true, move: true }, [
      entry("e1", "first", { edit: false, delete: false }),
    ]);
    expect(screen.getByText("1.52 KB")).toBeTruthy();
  });
});
