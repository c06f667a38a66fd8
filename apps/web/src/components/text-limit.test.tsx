import { cleanup, render, renderHook, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TextLimitNote, useTextLimit } from "./text-limit.tsx";

afterEach(cleanup);

const limitOf = (text: string, max = 100) =>
  renderHook(() => useTextLimit(text, max, "message")).result.current;

describe("useTextLimit", () => {
  it("stays quiet below 90 % of the limit", () => {
    const limit = limitOf("x".repeat(89));
    expect(limit).toMatchObject({ count: 89, isNear: false, isOver: false, message: null, counter: null });
    expect(limit.control).toEqual({ "aria-describedby": undefined, "aria-invalid": undefined });
    render(<TextLimitNote limit={limit} />);
    expect(document.body.textContent).toBe("");
  });

  it("shows the count near the limit and describes the box by it", () => {
    const limit = limitOf("x".repeat(90));
    expect(limit).toMatchObject({ isNear: true, isOver: false, counter: "90 / 100" });
    render(<TextLimitNote limit={limit} />);
    expect(screen.getByText("90 / 100").closest("p")?.id).toBe(limit.control["aria-describedby"]);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says what is allowed over the limit, with thousands written out", () => {
    const limit = limitOf("x".repeat(6000), 5000);
    expect(limit.isOver).toBe(true);
    expect(limit.control["aria-invalid"]).toBe(true);
    render(<TextLimitNote limit={limit} />);
    expect(screen.getByRole("alert").textContent).toBe("The message can be at most 5,000 characters.");
    expect(screen.getByText("6,000 / 5,000")).toBeTruthy();
  });

  it("describes a box by its own error and by the note while the note shows", () => {
    expect(limitOf("short").describedBy("box-error")).toBe("box-error");
    expect(limitOf("short").describedBy(null)).toBeUndefined();
    const near = limitOf("x".repeat(95));
    expect(near.describedBy("box-error")).toBe(`box-error ${near.noteId}`);
  });

  it("counts as the server does: trimmed, an emoji as one character", () => {
    expect(limitOf(`  ${"😀".repeat(100)}\n`).isOver).toBe(false);
    expect(limitOf("😀".repeat(101)).isOver).toBe(true);
  });
});
