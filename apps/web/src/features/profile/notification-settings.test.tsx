import {
  EMAIL_PREFERENCE_KEYS,
  EMAIL_PREFERENCE_LABELS,
  UNSENT_EMAIL_PREFERENCES,
  type User,
} from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EmailPreferences, UNSENT_PREFERENCE_HINT } from "./notification-settings.tsx";

const sent: unknown[] = [];
beforeEach(() => {
  sent.length = 0;
  vi.stubGlobal("fetch", async (_url: string, init?: RequestInit) => {
    if (init?.body) sent.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify({ data: {} }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("e-mail preferences", () => {
  it("shows one switch per alert, as the account has it, and saves a change", async () => {
    const emailPreferences = Object.fromEntries(
      EMAIL_PREFERENCE_KEYS.map((key, index) => [key, index === 0]),
    );
    const user = { emailPreferences, notificationSound: true } as unknown as User;
    render(
      <QueryClientProvider client={new QueryClient()}>
        <EmailPreferences user={user} />
      </QueryClientProvider>,
    );
    const switches = screen.getAllByRole("switch");
    expect(switches).toHaveLength(EMAIL_PREFERENCE_KEYS.length);
    const first = screen.getByRole("switch", { name: EMAIL_PREFERENCE_LABELS[EMAIL_PREFERENCE_KEYS[0]!] });
    expect(first.getAttribute("aria-checked")).toBe("true");
    const second = screen.getByRole("switch", { name: EMAIL_PREFERENCE_LABELS[EMAIL_PREFERENCE_KEYS[1]!] });
    expect(second.getAttribute("aria-checked")).toBe("false");
    await userEvent.click(second);
    await vi.waitFor(() =>
      expect(sent).toContainEqual({ emailPreferences: { [EMAIL_PREFERENCE_KEYS[1]!]: true } }),
    );
  });

  it("says under 'Offers and news' and 'Blog updates and bug fixes' that an instance never sends them", () => {
    const emailPreferences = Object.fromEntries(EMAIL_PREFERENCE_KEYS.map((key) => [key, true]));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <EmailPreferences user={{ emailPreferences, notificationSound: true } as unknown as User} />
      </QueryClientProvider>,
    );
    expect(UNSENT_EMAIL_PREFERENCES.map((key) => EMAIL_PREFERENCE_LABELS[key])).toEqual([
      "Offers and news",
      "Blog updates and bug fixes",
    ]);
    const hints = screen.getAllByText(UNSENT_PREFERENCE_HINT);
    expect(hints).toHaveLength(2);
    for (const [index, key] of UNSENT_EMAIL_PREFERENCES.entries()) {
      // Each hint sits in its switch's row, under that label.
      const row = hints[index]!.closest(".switch-row");
      expect(row?.textContent).toContain(EMAIL_PREFERENCE_LABELS[key]);
    }
    // The preferences that are sent carry no such hint.
    const commentsRow = screen.getByText(EMAIL_PREFERENCE_LABELS.comments).closest(".switch-row");
    expect(commentsRow?.textContent).not.toContain(UNSENT_PREFERENCE_HINT);
  });
});
