import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../lib/api.ts";
import { UpgradePrompt } from "./upgrade-prompt.tsx";
import { closeUpgradePrompt, showPlanRefusal } from "./upgrade-prompt-store.ts";

afterEach(() => {
  act(() => closeUpgradePrompt());
  cleanup();
});

const renderHost = () =>
  render(
    <MemoryRouter>
      <UpgradePrompt />
    </MemoryRouter>,
  );

describe("the upgrade prompt", () => {
  it("shows a plan limit's 402 with the server's message, the way to /upgrade, and 'Not now'", async () => {
    renderHost();
    const message = "The project owner's plan includes 1.00 GB of storage, and this would pass it.";
    let shown = false;
    act(() => {
      shown = showPlanRefusal(new ApiError(402, "storage", message));
    });
    expect(shown).toBe(true);
    const dialog = await screen.findByRole("dialog", { name: "This project's storage is full" });
    expect(dialog.textContent).toContain(message);
    expect(screen.getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("/upgrade");
    await userEvent.click(screen.getByRole("button", { name: "Not now" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("leaves every other error to its caller", () => {
    renderHost();
    let shown = true;
    act(() => {
      shown = showPlanRefusal(new ApiError(413, "max-file-size", "Max file size is 5 MB."));
    });
    expect(shown).toBe(false);
    expect(showPlanRefusal(new Error("network"))).toBe(false);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
