import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MANY_PINS, PIN_BUDGET, PositionLayer, type PositionPin, splitPins } from "./position-layer.tsx";

afterEach(cleanup);

const pins = (count: number, selected?: number): PositionPin[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `c${index + 1}`,
    number: index + 1,
    x: 0.5,
    y: (index + 0.5) / count,
    isResolved: false,
    isSelected: index + 1 === selected,
  }));

describe("pins on a picture", () => {
  it("draws a few pins as buttons named after their comments", () => {
    render(
      <PositionLayer pins={pins(20)} pending={null} label="Add a comment on the image" onSelect={() => {}}>
        <img alt="Mock" />
      </PositionLayer>,
    );
    expect(screen.getAllByRole("button", { name: /^Comment \d+$/ })).toHaveLength(20);
  });

  it("draws many pins as dots until the view is measured, but the selected one as its button", () => {
    const { container } = render(
      <PositionLayer pins={pins(5000, 4321)} pending={null} label="Add a comment" onSelect={() => {}}>
        <img alt="Mock" />
      </PositionLayer>,
    );
    expect(screen.getAllByRole("button", { name: /^Comment \d+$/ }).map((pin) => pin.textContent)).toEqual([
      "4321",
    ]);
    expect(container.querySelector("canvas[aria-hidden]")).not.toBeNull();
  });

  it("makes buttons of the pins in the band near the view, up to the budget, and the selected pin anywhere", () => {
    const all = pins(MANY_PINS * 10, 1);
    const { buttons, dots } = splitPins(all, { top: 0.5, bottom: 0.55 });
    expect(buttons[0]?.number).toBe(1);
    expect(buttons.slice(1).every((pin) => pin.y >= 0.5 && pin.y <= 0.55)).toBe(true);
    expect(buttons.length).toBe(1 + Math.round(all.length * 0.05));
    expect(buttons.length + dots.length).toBe(all.length);
    expect(splitPins(all, { top: 0, bottom: 1 }).buttons).toHaveLength(PIN_BUDGET);
    expect(splitPins(all, null).buttons).toHaveLength(all.length);
  });
});
