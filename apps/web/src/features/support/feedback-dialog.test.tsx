import { FEEDBACK_TEXTS, MAX_SUPPORT_MESSAGE, MESSAGES } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectHeldOverLimit } from "../../components/text-limit-testing.ts";
import { stubApi } from "../billing/billing-fixtures.ts";
import type { Region } from "./capture-region.ts";
import { regionBetween } from "./capture-region.ts";
import { FeedbackDialog } from "./feedback-dialog.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SHOT = "data:image/png;base64,iVBORw0KGgo=";

function renderDialog(capture: (region: Region) => Promise<string> = async () => SHOT) {
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FeedbackDialog open onOpenChange={onOpenChange} capture={capture} />
    </QueryClientProvider>,
  );
  return onOpenChange;
}

/** Drags over the selection overlay from one point to another. */
function drag(from: { x: number; y: number }, to: { x: number; y: number }) {
  const overlay = screen.getByTestId("screenshot-selector");
  fireEvent.pointerDown(overlay, { button: 0, clientX: from.x, clientY: from.y, pointerId: 1 });
  fireEvent.pointerMove(overlay, { clientX: to.x, clientY: to.y, pointerId: 1 });
  fireEvent.pointerUp(overlay, { clientX: to.x, clientY: to.y, pointerId: 1 });
}

describe("the feedback dialog", () => {
  it("submits only a text that is not blank, says 'Sending...' meanwhile, then thanks and starts again", async () => {
    let answer!: (value: { status: number; body: unknown }) => void;
    const sent = stubApi({
      "POST /api/support/feedback": () => new Promise((resolve) => (answer = resolve)),
    });
    renderDialog();
    const text = screen.getByPlaceholderText(FEEDBACK_TEXTS.placeholder);
    const submit = screen.getByRole("button", { name: FEEDBACK_TEXTS.submit }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(text, { target: { value: "  \n " } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(text, { target: { value: "  Lovely pins  " } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    const sending = (await screen.findByRole("button", {
      name: FEEDBACK_TEXTS.sending,
    })) as HTMLButtonElement;
    expect(sending.disabled).toBe(true);
    answer({ status: 201, body: { message: FEEDBACK_TEXTS.thanks } });
    expect(await screen.findByText(FEEDBACK_TEXTS.thanks)).toBeTruthy();
    expect(sent).toEqual([
      {
        method: "POST",
        path: "/api/support/feedback",
        body: { message: "Lovely pins", screenshots: [], page: "/" },
      },
    ]);
    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.sendAnother }));
    expect((screen.getByPlaceholderText(FEEDBACK_TEXTS.placeholder) as HTMLTextAreaElement).value).toBe("");
    expect(screen.queryByText(FEEDBACK_TEXTS.thanks)).toBeNull();
  });

  it("keeps a paste over the limit whole, says what is allowed and holds Submit until it fits", () => {
    renderDialog();
    const text = screen.getByPlaceholderText(FEEDBACK_TEXTS.placeholder) as HTMLTextAreaElement;
    const submit = screen.getByRole("button", { name: FEEDBACK_TEXTS.submit }) as HTMLButtonElement;
    fireEvent.change(text, { target: { value: "x".repeat(4000) } });
    expect(screen.queryByText(/\/ 5,000/)).toBeNull();
    fireEvent.change(text, { target: { value: "x".repeat(4600) } });
    expect(screen.getByText("4,600 / 5,000")).toBeTruthy();
    expect(submit.disabled).toBe(false);
    expectHeldOverLimit(text, submit, MAX_SUPPORT_MESSAGE, "The feedback can be at most 5,000 characters.");
  });

  it("hides while the user drags a region, adds the screenshot, takes another, removes one and sends the rest", async () => {
    const sent = stubApi({ "POST /api/support/feedback": { status: 201, body: { message: "ok" } } });
    const regions: Region[] = [];
    let count = 0;
    renderDialog(async (region) => {
      regions.push(region);
      count += 1;
      return `${SHOT}#${count}`;
    });
    expect(screen.getByText(FEEDBACK_TEXTS.dragHint)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.takeScreenshot }));
    // The dialog steps aside; the overlay asks for a drag.
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    drag({ x: 10, y: 20 }, { x: 110, y: 80 });
    expect(await screen.findByRole("img", { name: "Screenshot 1" })).toBeTruthy();
    expect(regions).toEqual([{ x: 10, y: 20, width: 100, height: 60 }]);

    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.takeAnother }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // A click without a drag is not a screenshot; the overlay stays.
    drag({ x: 50, y: 50 }, { x: 52, y: 51 });
    expect(screen.getByTestId("screenshot-selector")).toBeTruthy();
    drag({ x: 200, y: 200 }, { x: 40, y: 100 });
    expect(await screen.findByRole("img", { name: "Screenshot 2" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: `${FEEDBACK_TEXTS.removeScreenshot} 1` }));
    expect(screen.queryByRole("img", { name: "Screenshot 2" })).toBeNull();
    fireEvent.change(screen.getByPlaceholderText(FEEDBACK_TEXTS.placeholder), {
      target: { value: "This part" },
    });
    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.submit }));
    expect(await screen.findByText(FEEDBACK_TEXTS.thanks)).toBeTruthy();
    expect(sent[0]?.body).toEqual({ message: "This part", screenshots: [`${SHOT}#2`], page: "/" });
  });

  it("leaves the overlay with Escape, and says why a screenshot could not be taken", async () => {
    renderDialog(async () => {
      throw new Error(MESSAGES.maxFileSize);
    });
    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.takeScreenshot }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.keyDown(window, { key: "Escape" });
    expect(await screen.findByRole("dialog")).toBeTruthy();
    expect(screen.queryByTestId("screenshot-selector")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.takeScreenshot }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    drag({ x: 0, y: 0 }, { x: 100, y: 100 });
    expect(await screen.findByText(MESSAGES.maxFileSize)).toBeTruthy();
  });

  it("shows the server's refusal and keeps what was written", async () => {
    stubApi({
      "POST /api/support/feedback": {
        status: 413,
        body: { code: "max-file-size", message: MESSAGES.maxFileSize },
      },
    });
    renderDialog();
    fireEvent.change(screen.getByPlaceholderText(FEEDBACK_TEXTS.placeholder), { target: { value: "Hi" } });
    fireEvent.click(screen.getByRole("button", { name: FEEDBACK_TEXTS.submit }));
    expect(await screen.findByText(MESSAGES.maxFileSize)).toBeTruthy();
    expect((screen.getByPlaceholderText(FEEDBACK_TEXTS.placeholder) as HTMLTextAreaElement).value).toBe("Hi");
  });
});

describe("regionBetween", () => {
  it("is the rectangle between two points in any direction, kept inside the viewport", () => {
    const viewport = { width: 800, height: 600 };
    expect(regionBetween({ x: 10, y: 20 }, { x: 110, y: 80 }, viewport)).toEqual({
      x: 10,
      y: 20,
      width: 100,
      height: 60,
    });
    expect(regionBetween({ x: 110, y: 80 }, { x: 10, y: 20 }, viewport)).toEqual({
      x: 10,
      y: 20,
      width: 100,
      height: 60,
    });
    expect(regionBetween({ x: 700, y: 500 }, { x: 900, y: -5 }, viewport)).toEqual({
      x: 700,
      y: 0,
      width: 100,
      height: 500,
    });
  });
});
