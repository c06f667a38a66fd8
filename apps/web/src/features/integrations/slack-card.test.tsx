import type { ProjectIntegration } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SlackCard } from "./slack-card.tsx";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const requests: { method: string; url: string; body?: unknown }[] = [];

function stubApi(answer: (method: string, url: string) => Response) {
  requests.length = 0;
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    requests.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return answer(method, url);
  });
}
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const connected: ProjectIntegration = {
  id: "i1",
  type: "slack",
  isEnabled: true,
  webhook: null,
  slack: { teamName: "Acme", channelId: null, channelName: null },
  createdAt: "2026-11-29T00:00:00.000Z",
  modifiedAt: "2026-11-29T00:00:00.000Z",
};

function renderCard(integration: ProjectIntegration | null, onLeave = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SlackCard projectId="p1" integration={integration} onLeave={onLeave} />
    </QueryClientProvider>,
  );
  return onLeave;
}

describe("the Slack card", () => {
  it("connects through Slack's install link", async () => {
    stubApi(() => json(200, { data: { url: "https://slack.test/oauth/v2/authorize?state=s" } }));
    const onLeave = renderCard(null);
    await userEvent.click(screen.getByRole("button", { name: "Connect Slack" }));
    await waitFor(() =>
      expect(onLeave).toHaveBeenCalledWith("https://slack.test/oauth/v2/authorize?state=s"),
    );
    expect(requests[0]).toMatchObject({ method: "POST", url: "/api/projects/p1/integrations/slack/connect" });
  });

  it("lists the channels, saves the one chosen, and disconnects with SPEC's text", async () => {
    stubApi((method, url) => {
      if (url.endsWith("/slack/channels"))
        return json(200, { data: [{ id: "C1", name: "design-reviews", isPrivate: false }] });
      if (method === "PUT")
        return json(200, { data: connected, message: "Slack channel set to #design-reviews." });
      if (method === "DELETE") return json(200, { message: "Slack disconnected successfully." });
      return json(200, { data: { available: ["slack"], integrations: [] } });
    });
    renderCard(connected);
    expect(screen.getByText("Workspace: Acme")).toBeTruthy();
    const select = screen.getByRole("combobox", { name: "Channel" });
    await screen.findByRole("option", { name: "#design-reviews" });
    await userEvent.selectOptions(select, "C1");
    await waitFor(() =>
      expect(requests).toContainEqual({
        method: "PUT",
        url: "/api/projects/p1/integrations/slack",
        body: { channelId: "C1" },
      }),
    );
    await userEvent.click(screen.getByRole("button", { name: "Disconnect Slack" }));
    await userEvent.click(await screen.findByRole("button", { name: "Disconnect" }));
    await waitFor(() =>
      expect(
        requests.some((r) => r.method === "DELETE" && r.url === "/api/projects/p1/integrations/slack"),
      ).toBe(true),
    );
  });

  it("says 'Something went wrong' when the channels cannot be read", async () => {
    stubApi(() =>
      json(502, { error: "Bad Gateway", code: "slack-invalid_auth", message: "Something went wrong" }),
    );
    renderCard(connected);
    expect((await screen.findByRole("alert")).textContent).toBe("Something went wrong");
  });
});
