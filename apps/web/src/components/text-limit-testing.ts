/**
 * For component tests of a bounded text box (text-limit.tsx): a text one over the limit is kept whole,
 * the box says what is allowed and counts, and `submit` waits; at the limit it may go again.
 */
import { fireEvent, screen } from "@testing-library/react";
import { expect } from "vitest";

export function expectHeldOverLimit(
  box: HTMLTextAreaElement | HTMLInputElement,
  submit: HTMLButtonElement,
  max: number,
  message: string,
): void {
  const count = (n: number) => n.toLocaleString("en-US");
  expect(box.hasAttribute("maxlength")).toBe(false);
  fireEvent.change(box, { target: { value: "x".repeat(max + 1) } });
  expect(box.value).toHaveLength(max + 1);
  expect(screen.getByRole("alert").textContent).toBe(message);
  expect(screen.getByText(`${count(max + 1)} / ${count(max)}`)).toBeTruthy();
  expect(box.getAttribute("aria-invalid")).toBe("true");
  expect(submit.disabled).toBe(true);
  fireEvent.change(box, { target: { value: "x".repeat(max) } });
  expect(screen.queryByRole("alert")).toBeNull();
  expect(submit.disabled).toBe(false);
}
