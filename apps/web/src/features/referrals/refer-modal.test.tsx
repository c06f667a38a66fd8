/**
 * The Refer & Earn modal: the person's link with a copy button, what it earned and until when, a designed
 * loading and error state (with a retry), and nothing of "coming soon".
 */
import { REFERRAL_TEXTS, type Referral } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReferModal } from "./refer-modal.tsx";

const referral: Referral = {
  link: "https://redline.example/r/abcd2345",
  signUps: 3,
  rewarded: 2,
  maxRewards: 12,
  standardUntil: "2027-02-01T12:00:00.000Z",
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const open = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ReferModal open onOpenChange={() => {}} />
    </QueryClientProvider>,
  );

describe("the Refer & Earn modal", () => {
  it("shows the link to copy, the friends who joined, the months earned and until when they run", async () => {
    vi.stubGlobal("fetch", async () => json(200, { data: referral }));
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    open();
    expect(screen.getByRole("dialog", { name: REFERRAL_TEXTS.title })).toBeTruthy();
    const link = (await screen.findByLabelText("Your referral link")) as HTMLInputElement;
    expect(link.value).toBe(referral.link);
    expect(screen.getByText("3 friends")).toBeTruthy();
    expect(screen.getByText("2 months of Standard (up to 12)")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toMatch(/runs until .*2027/);
    await userEvent.click(screen.getByRole("button", { name: REFERRAL_TEXTS.copy }));
    expect(writeText).toHaveBeenCalledWith(referral.link);
    expect(await screen.findByRole("button", { name: REFERRAL_TEXTS.copied })).toBeTruthy();
    expect(screen.queryByText(/coming soon/i)).toBeNull();
  });

  it("says what is pending before a friend confirms, and tries again after an error", async () => {
    let calls = 0;
    vi.stubGlobal("fetch", async () =>
      ++calls === 1
        ? json(500, { code: "internal", message: "Boom" })
        : json(200, { data: { ...referral, signUps: 1, rewarded: 0, standardUntil: null } }),
    );
    open();
    expect(await screen.findByRole("alert")).toBeTruthy();
    expect(screen.getByText("Your referral link could not be loaded.")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("1 friend")).toBeTruthy();
    expect(screen.getByText(/as soon as your friend confirms their e-mail address/)).toBeTruthy();
  });
});
