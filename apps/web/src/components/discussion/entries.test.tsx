import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Editor, entry } from "./discussion-fixtures.tsx";
import { ThreadEntries } from "./entries.tsx";

afterEach(cleanup);

function renderEntries(onSave = vi.fn(async () => {}), onDelete = vi.fn()) {
  render(
    <ThreadEntries
      entries={[
        entry("e1", "first", { edit: true, delete: true }),
        entry("e2", "second", { edit: false, delete: true }),
      ]}
      people={null}
      projectId="p1"
      noun="message"
      canDownload
      className="entries"
      Editor={Editor}
      isSaving={false}
      onSave={onSave}
      onDelete={onDelete}
    />,
  );
  return { onSave, onDelete };
}

describe("a discussion's entries", () => {
  it("edits an entry in place with the subject's composer, and closes it once saved", async () => {
    const { onSave } = renderEntries();
    expect(screen.getAllByRole("button", { name: "Edit message" })).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Edit message" }));
    const box = screen.getByRole("combobox", { name: "Edit message" });
    expect((box as HTMLTextAreaElement).value).toBe("first");
    await userEvent.clear(box);
    await userEvent.type(box, "first, corrected");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ id: "e1" }), "first, corrected");
    await waitFor(() => expect(screen.queryByRole("combobox", { name: "Edit message" })).toBeNull());
  });

  it("keeps the text when the edit is cancelled, and hands a delete to the subject", async () => {
    const { onSave, onDelete } = renderEntries();
    await userEvent.click(screen.getByRole("button", { name: "Edit message" }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("combobox", { name: "Edit message" })).toBeNull();
    expect(screen.getByText("first")).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    await userEvent.click(screen.getAllByRole("button", { name: "Delete message" })[1] as HTMLElement);
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: "e2" }));
  });
});
