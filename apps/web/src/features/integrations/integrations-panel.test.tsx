import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IntegrationsButton } from "./integrations-panel.tsx";

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

async function openPanel(canManage = true) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <IntegrationsButton projectId="p1" canManage={canManage} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  await userEvent.click(screen.getByRole("button", { name: "Integrations" }));
  return screen.findByRole("dialog", { name: "Integrations" });
}

describe("the Integrations panel", () => {
  it("is not shown to people who may not manage the project", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <IntegrationsButton projectId="p1" canManage={false} />
      </QueryClientProvider>,
    );
    expect(screen.queryByRole("button", { name: "Integrations" })).toBeNull();
  });

  it("offers the upgrade when the owner's plan has no integrations, and no card", async () => {
    const message = "Integrations are not included in this project owner's plan. Upgrade to connect them.";
    stubApi(() => json(402, { error: "Payment Required", code: "integrations", message }));
    const dialog = await openPanel();
    expect(await within(dialog).findByText(message, { exact: false })).toBeTruthy();
    expect(within(dialog).getByRole("link", { name: "Upgrade now" }).getAttribute("href")).toBe("/upgrade");
    expect(within(dialog).queryByLabelText("Webhook URL")).toBeNull();
  });

  it("refuses a URL that is not http(s) without asking, then connects and shows the secret once", async () => {
    stubApi((method, url) => {
      if (method === "PUT")
        return json(201, {
          data: {},
          message: "Zapier/Webhook connected successfully.",
          secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
        });
      if (url.endsWith("/deliveries")) return json(200, { data: [] });
      return json(200, { data: { available: ["webhook"], integrations: [] } });
    });
    const dialog = await openPanel();
    const field = await within(dialog).findByLabelText("Webhook URL");
    await userEvent.type(field, "ftp://example.com/hook");
    await userEvent.click(within(dialog).getByRole("button", { name: "Connect" }));
    expect(await within(dialog).findByText(/must be an http\(s\) address/)).toBeTruthy();
    expect(requests.filter((request) => request.method === "PUT")).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, "https://hooks.example.com/redline");
    await userEvent.click(within(dialog).getByLabelText("Ticket created"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Connect" }));
    expect((await within(dialog).findByTestId("webhook-secret")).textContent).toMatch(/^whsec_/);
    expect(requests.find((request) => request.method === "PUT")).toEqual({
      method: "PUT",
      url: "/api/projects/p1/integrations/webhook",
      body: {
        url: "https://hooks.example.com/redline",
        events: ["comment.created", "comment.replied", "comment.resolved", "ticket.created"],
      },
    });
  });
});
