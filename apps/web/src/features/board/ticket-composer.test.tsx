import { MAX_TICKET_ENTRY } from "@redline/shared";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectHeldOverLimit } from "../../components/text-limit-testing.ts";
import { TicketComposer } from "./ticket-composer.tsx";

afterEach(cleanup);

/** A ticket's reply box inside a drawer that closes on Escape, as the board's ticket panel does. */
function renderInDrawer(onCancel?: () => void) {
  const closeDrawer = vi.fn();
  render(
    // biome-ignore lint/a11y/noStaticElementInteractions: the test's stand-in for the ticket drawer
    <div onKeyDown={(event) => event.key === "Escape" && closeDrawer()}>
      <TicketComposer
        label="Write a reply"
        submitLabel="Reply"
        people={[{ uid: "ada", displayName: "Ada Lovelace" }]}
        projectId="p1"
        allowAttachments={false}
        onSubmit={async () => undefined}
        onCancel={onCancel}
      />
    </div>,
  );
  return {
    box: screen.getByRole("combobox", { name: "Write a reply" }) as HTMLTextAreaElement,
    reply: screen.getByRole("button", { name: "Reply" }) as HTMLButtonElement,
    closeDrawer,
  };
}

describe("the discussion composer, as a ticket's reply box", () => {
  it("holds a reply over the ticket's limit and says so in the reply's words", () => {
    const { box, reply } = renderInDrawer();
    expectHeldOverLimit(box, reply, MAX_TICKET_ENTRY, "The reply can be at most 5,000 characters.");
  });

  it("closes the mention list on Escape, then cancels the edit, and the drawer around it stays open", () => {
    const cancel = vi.fn();
    const { box, closeDrawer } = renderInDrawer(cancel);
    fireEvent.change(box, { target: { value: "@Ad", selectionStart: 3 } });
    expect(screen.getByRole("listbox", { name: "People" }).hidden).toBe(false);
    fireEvent.keyDown(box, { key: "Escape" });
    expect(screen.queryByRole("listbox", { name: "People" })).toBeNull();
    expect(cancel).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: "Escape" });
    expect(cancel).toHaveBeenCalledOnce();
    expect(closeDrawer).not.toHaveBeenCalled();
  });
});
