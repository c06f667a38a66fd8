import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SlidePins } from "./slide-pins.tsx";
import type { StagePin } from "./slide-stage.tsx";

afterEach(cleanup);

const pin = (id: string, number: number, more: Partial<StagePin> = {}): StagePin => ({
  id,
  number,
  x: 100 * number,
  y: 50,
  isResolved: false,
  isOpen: false,
  movable: true,
  author: "Ada Lovelace",
  ...more,
});

describe("the slide's comment pins for the keyboard", () => {
  it("puts each pin in the tab order, named, where it is drawn; Enter opens its thread", async () => {
    const onOpen = vi.fn();
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Before</button>
        <SlidePins
          pins={[pin("a", 1), pin("b", 2, { isResolved: true, isOpen: true, author: "Margaret" })]}
          scale={0.5}
          onOpen={onOpen}
        />
      </>,
    );
    const list = screen.getByRole("list", { name: "Comment pins" });
    expect(list).toBeTruthy();
    const first = screen.getByRole("button", { name: "Comment 1 by Ada Lovelace" });
    const second = screen.getByRole("button", { name: "Comment 2 by Margaret, resolved" });
    expect(first.style.left).toBe("50px");
    expect(second.style.left).toBe("100px");
    expect(second.getAttribute("aria-pressed")).toBe("true");

    screen.getByRole("button", { name: "Before" }).focus();
    await user.tab();
    expect(document.activeElement).toBe(first);
    await user.tab();
    expect(document.activeElement).toBe(second);
    await user.keyboard("{Enter}");
    expect(onOpen).toHaveBeenCalledWith("b");
    await user.tab({ shift: true });
    await user.keyboard(" ");
    expect(onOpen).toHaveBeenLastCalledWith("a");
  });

  it("renders nothing for a slide without pins", () => {
    const { container } = render(<SlidePins pins={[]} scale={1} onOpen={() => {}} />);
    expect(container.innerHTML).toBe("");
  });
});
