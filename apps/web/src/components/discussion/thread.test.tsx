import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Editor, entry } from "./discussion-fixtures.tsx";
import type { DiscussionEntry } from "./entry.tsx";
import { DiscussionThread } from "./thread.tsx";

afterEach(cleanup);

const entries = [entry("e1", "first"), entry("e2", "second")];

function renderThread(canReply: boolean) {
  const onSubmit = vi.fn(async () => {});
  const onConfirmDelete = vi.fn((_entry: DiscussionEntry, done: () => void) => done());
  render(
    <DiscussionThread
      entries={entries}
      people={null}
      projectId="p1"
      noun="message"
      canDownload
      className="entries"
      Editor={Editor}
      isSaving={false}
      onSave={vi.fn(async () => {})}
      reply={canReply ? { key: "t1", allowAttachments: false, isPending: false, onSubmit } : null}
      deletion={(doomed) =>
        doomed.id === "e1"
          ? { title: "Delete the whole thing?", description: "It all goes.", confirmLabel: "Delete all" }
          : { title: "Delete this message?", description: "Only this one.", confirmLabel: "Delete message" }
      }
      isDeleting={false}
      onConfirmDelete={onConfirmDelete}
    />,
  );
  return { onSubmit, onConfirmDelete };
}

describe("a discussion's thread", () => {
  it("sends a reply from its reply box, and shows none to who may not reply", async () => {
    const { onSubmit } = renderThread(true);
    await userEvent.type(screen.getByRole("combobox", { name: "Reply" }), "Thanks");
    await userEvent.click(screen.getByRole("button", { name: "Reply" }));
    expect(onSubmit).toHaveBeenCalledWith({ comment: "Thanks", attachments: [] });
    cleanup();
    renderThread(false);
    expect(screen.queryByRole("combobox", { name: "Reply" })).toBeNull();
  });

  it("asks with the subject's words for the entry being deleted before deleting it", async () => {
    const { onConfirmDelete } = renderThread(false);
    await userEvent.click(screen.getAllByRole("button", { name: "Delete message" })[0] as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "Delete the whole thing?" });
    expect(within(dialog).getByText("It all goes.")).toBeTruthy();
    expect(onConfirmDelete).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete all" }));
    expect(onConfirmDelete).toHaveBeenCalledWith(expect.objectContaining({ id: "e1" }), expect.any(Function));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
