import { DEFAULT_TEAM_THEME, TEAM_BRANDING_MESSAGES, type Team, type TeamAbilities } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UpgradePrompt } from "../../components/upgrade-prompt.tsx";
import { closeUpgradePrompt } from "../../components/upgrade-prompt-store.ts";
import { TeamBrandingPanel } from "./branding-panel.tsx";

afterEach(() => {
  act(() => closeUpgradePrompt());
  cleanup();
  vi.unstubAllGlobals();
});

const NONE: TeamAbilities = {
  rename: false,
  addMembers: false,
  changeRoles: false,
  removeMembers: false,
  removeCollaborators: false,
  leave: false,
  brand: false,
  setDomain: false,
};

const team = (overrides: Partial<Team> = {}): Team => ({
  id: "team-1",
  product: "web",
  name: "Brand Co",
  ownerId: "owner",
  isDisabled: false,
  customBranding: false,
  theme: null,
  domain: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  modifiedAt: "2025-01-01T00:00:00.000Z",
  plan: { isPaid: true, branding: true, customDomain: true },
  role: "owner",
  abilities: { ...NONE, brand: true },
  ...overrides,
});

function renderPanel(value: Team) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <TeamBrandingPanel team={value} />
        <UpgradePrompt />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe("the team branding panel", () => {
  it("shows nothing to people who may not brand the team", () => {
    renderPanel(team({ abilities: NONE, role: "member" }));
    expect(screen.queryByRole("heading", { name: "Branding" })).toBeNull();
  });

  it("offers the switch, the three labelled colours and both pictures", () => {
    renderPanel(team({ customBranding: true, theme: { ...DEFAULT_TEAM_THEME, logoURL: "/files/l.png" } }));
    expect(screen.getByRole("switch", { name: "Custom branding" }).getAttribute("aria-checked")).toBe("true");
    for (const label of ["Primary colour", "Secondary colour", "Text highlight colour"])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByRole("img", { name: "Team logo" }).getAttribute("src")).toBe("/files/l.png");
    expect(screen.getByRole("button", { name: "Remove logo" })).toBeTruthy();
    expect(screen.getByText("Upload icon")).toBeTruthy();
    expect(screen.getByText("Shown to the team")).toBeTruthy();
  });

  it("says the branding is not shown once the team owner's plan no longer includes it", () => {
    renderPanel(
      team({
        customBranding: true,
        theme: { ...DEFAULT_TEAM_THEME, logoURL: "/files/l.png" },
        plan: { isPaid: false, branding: false, customDomain: false },
      }),
    );
    expect(screen.getByText("Not shown")).toBeTruthy();
    expect(screen.queryByText("Shown to the team")).toBeNull();
    expect(screen.getByText(TEAM_BRANDING_MESSAGES.notInPlan)).toBeTruthy();
  });

  it("saves only the colours that changed", async () => {
    const sent: unknown[] = [];
    vi.stubGlobal("fetch", async (_input: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ data: team(), message: "Branding updated." }), { status: 200 });
    });
    renderPanel(team());
    const save = screen.getByRole("button", { name: "Save colours" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const primary = screen.getByLabelText("Primary colour") as HTMLInputElement;
    await userEvent.click(primary);
    // A colour input's value is set as the picker would set it.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(primary, "#2255aa");
    primary.dispatchEvent(new Event("input", { bubbles: true }));
    expect(save.disabled).toBe(false);
    await userEvent.click(save);
    await vi.waitFor(() => expect(sent).toEqual([{ primaryColor: "#2255aa" }]));
  });

  it("refuses a picture over 5 MB before sending it", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    renderPanel(team());
    const input = document.querySelector<HTMLInputElement>('.branding__asset--logo input[type="file"]')!;
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.png", { type: "image/png" });
    await userEvent.upload(input, big);
    expect((await screen.findByRole("alert")).textContent).toBe("Max file size is 5 MB.");
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("opens the upgrade prompt when the team owner's plan lacks branding (402)", async () => {
    const message = "Custom branding is not included in the team owner's plan.";
    vi.stubGlobal(
      "fetch",
      async () => new Response(JSON.stringify({ code: "branding", message }), { status: 402 }),
    );
    renderPanel(team());
    await userEvent.click(screen.getByRole("switch", { name: "Custom branding" }));
    const dialog = await screen.findByRole("dialog", { name: "Upgrade your plan" });
    expect(dialog.textContent).toContain(message);
  });
});
