import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { KeyboardShortcuts } from "./keyboard-shortcuts.tsx";

afterEach(cleanup);

describe("the keyboard shortcuts drawer", () => {
  it("lists the spec's shortcuts with their keys, under its title", () => {
    render(<KeyboardShortcuts open onOpenChange={() => {}} />);
    const drawer = screen.getByRole("dialog", { name: "Keyboard Shortcuts" });
    const terms = within(drawer)
      .getAllByRole("term")
      .map((term) => term.textContent);
    expect(terms).toEqual([
      "Bold",
      "Underline",
      "Italic",
      "Undo",
      "Move objects by 10 px",
      "Tag members",
      "Detect spacing",
      "Edit mode",
      "Click actionable elements",
      "Open/close popups",
    ]);
    expect(within(drawer).getAllByText("Shift").length).toBe(1);
  });

  it("is not in the page while closed", () => {
    render(<KeyboardShortcuts open={false} onOpenChange={() => {}} />);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
