import { TEAM_DOMAIN_MESSAGES, type Team, type TeamDomain } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeUpgradePrompt, useUpgradePrompt } from "../../components/upgrade-prompt-store.ts";
import { TeamDomainPanel } from "./domain-panel.tsx";

afterEach(() => {
  cleanup();
  act(() => closeUpgradePrompt());
  vi.unstubAllGlobals();
});

const team = (setDomain: boolean, customDomain = true) =>
  ({
    id: "team-1",
    abilities: { setDomain },
    plan: { isPaid: customDomain, branding: customDomain, customDomain },
  }) as unknown as Team;
const domain: TeamDomain = {
  domain: "review.example.com",
  status: "verified",
  checkedAt: null,
  records: [
    { type: "CNAME", name: "review.example.com", value: "app.redline.test" },
    { type: "TXT", name: "_redline-challenge.review.example.com", value: "redline-verification=abc" },
  ],
};

type Handler = (method: string, url: string, body: unknown) => { status: number; body: unknown };
function serve(handler: Handler) {
  const sent: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
    const call = {
      method: init?.method ?? "GET",
      url: String(input),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    sent.push(call);
    const answer = handler(call.method, call.url, call.body);
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  return sent;
}

let promptOpen = false;
function PromptProbe() {
  promptOpen = useUpgradePrompt().open;
  return null;
}

const renderPanel = (setDomain = true, customDomain = true) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TeamDomainPanel team={team(setDomain, customDomain)} />
      <PromptProbe />
    </QueryClientProvider>,
  );

describe("the custom-domain panel", () => {
  it("is not there for people who may not set the domain", () => {
    const sent = serve(() => ({ status: 200, body: { data: null } }));
    const { container } = renderPanel(false);
    expect(container.innerHTML).toBe("");
    expect(sent).toEqual([]);
  });

  it("shows the domain, its status, and each record with copy buttons that have names", async () => {
    serve(() => ({ status: 200, body: { data: domain } }));
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    renderPanel();
    const table = await screen.findByRole("table", { name: "DNS records" });
    expect(screen.getByRole("heading", { name: "Custom domain" })).toBeTruthy();
    expect(screen.getByText("Verified")).toBeTruthy();
    expect((screen.getByLabelText("Domain") as HTMLInputElement).value).toBe("review.example.com");
    expect(within(table).getByText("redline-verification=abc")).toBeTruthy();
    for (const name of ["Copy CNAME name", "Copy CNAME value", "Copy TXT name", "Copy TXT value"])
      expect(screen.getByRole("button", { name })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Copy TXT value" }));
    expect(writeText).toHaveBeenCalledWith("redline-verification=abc");
    expect(screen.getByText("Not checked yet")).toBeTruthy();
  });

  it("says an active domain is paused once the team owner's plan no longer includes one", async () => {
    serve(() => ({ status: 200, body: { data: { ...domain, status: "active" } } }));
    renderPanel(true, false);
    await screen.findByRole("table", { name: "DNS records" });
    expect(screen.getByText("Paused")).toBeTruthy();
    expect(screen.queryByText("Active")).toBeNull();
    expect(screen.getByText(TEAM_DOMAIN_MESSAGES.paused("review.example.com"))).toBeTruthy();
  });

  it("saves a domain it has checked itself, and shows the server's refusal under the field", async () => {
    const sent = serve((method) =>
      method === "PUT"
        ? {
            status: 409,
            body: { error: "Conflict", code: "domain-taken", message: TEAM_DOMAIN_MESSAGES.taken },
          }
        : { status: 200, body: { data: null } },
    );
    renderPanel();
    await screen.findByText("No custom domain yet.");
    await userEvent.type(screen.getByLabelText("Domain"), "https://x.example.com");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("alert")).textContent).toBe(TEAM_DOMAIN_MESSAGES.invalid);
    expect(sent.filter((call) => call.method === "PUT")).toEqual([]);

    await userEvent.clear(screen.getByLabelText("Domain"));
    await userEvent.type(screen.getByLabelText("Domain"), "Taken.Example.com");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("alert")).textContent).toBe(TEAM_DOMAIN_MESSAGES.taken);
    expect(sent.find((call) => call.method === "PUT")).toEqual({
      method: "PUT",
      url: "/api/teams/team-1/domain",
      body: { domain: "taken.example.com" },
    });
  });

  it("opens the upgrade prompt on a plan's 402", async () => {
    serve((method) =>
      method === "PUT"
        ? {
            status: 402,
            body: {
              error: "Payment Required",
              code: "custom-domain",
              message: TEAM_DOMAIN_MESSAGES.planRequired,
            },
          }
        : { status: 200, body: { data: null } },
    );
    renderPanel();
    await userEvent.type(await screen.findByLabelText("Domain"), "review.example.com");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await vi.waitFor(() => expect(promptOpen).toBe(true));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("checks again, saying so while it runs, and shows the new status", async () => {
    let release: () => void = () => {};
    let current: TeamDomain = domain;
    const sent = serve((method) => {
      if (method === "POST") current = { ...domain, status: "active", checkedAt: new Date().toISOString() };
      return {
        status: 200,
        body: { data: current, message: method === "POST" ? "The domain is active." : undefined },
      };
    });
    const fetchNow = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
      if (init?.method === "POST") await new Promise<void>((resolve) => (release = resolve));
      return fetchNow(input, init);
    });
    renderPanel();
    await userEvent.click(await screen.findByRole("button", { name: "Check again" }));
    const busy = await screen.findByRole("button", { name: "Checking..." });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    release();
    await screen.findByText("Active");
    expect(screen.getByText("Checked just now")).toBeTruthy();
    expect(sent.some((call) => call.method === "POST" && call.url === "/api/teams/team-1/domain/check")).toBe(
      true,
    );
  });
});
