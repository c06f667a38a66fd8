import type { WidgetSettings } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InstallWidgetButton } from "./install-widget.tsx";

const SNIPPET =
  '<script src="https://app.example/widget/v1/redline.js" data-key="k3y-0123456789abcdef" async></script>';
let settings: WidgetSettings;
const puts: unknown[] = [];

beforeEach(() => {
  puts.length = 0;
  settings = {
    projectId: "p1",
    key: "k3y-0123456789abcdef",
    allowedOrigins: ["https://shop.example.com"],
    snippet: SNIPPET,
  };
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    expect(url).toBe("/api/projects/p1/widget");
    if (init?.method === "PUT") {
      const body = JSON.parse(String(init.body));
      puts.push(body);
      settings = { ...settings, allowedOrigins: body.allowedOrigins };
    }
    return new Response(JSON.stringify({ data: settings }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openModal() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <InstallWidgetButton projectId="p1" />
    </QueryClientProvider>,
  );
  await userEvent.click(screen.getByRole("button", { name: "Install widget" }));
  const dialog = await screen.findByRole("dialog", { name: "Install widget" });
  await within(dialog).findByRole("list", { name: "Allowed sites" });
  return dialog;
}

describe("install widget", () => {
  it("shows the snippet to copy and the allowed sites", async () => {
    const dialog = await openModal();
    expect((within(dialog).getByLabelText("Snippet") as HTMLTextAreaElement).value).toBe(SNIPPET);
    expect(within(dialog).getByRole("button", { name: "Copy the snippet" })).toBeTruthy();
    expect(within(dialog).getByText("https://shop.example.com")).toBeTruthy();
    expect(within(dialog).getByText('data-trigger="hidden"')).toBeTruthy();
    expect(within(dialog).getByText("data-redline-mask")).toBeTruthy();
  });

  it("adds a site by its origin, refuses what is not one, and removes a site", async () => {
    const dialog = await openModal();
    const field = within(dialog).getByLabelText("Site origin");
    await userEvent.type(field, "ftp://files.example.com");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add site" }));
    expect(await within(dialog).findByText(/An origin is a scheme and a host/)).toBeTruthy();
    expect(puts).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, "https://Staging.example.com/checkout?x=1");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add site" }));
    await vi.waitFor(() =>
      expect(puts).toEqual([{ allowedOrigins: ["https://shop.example.com", "https://staging.example.com"] }]),
    );
    await within(dialog).findByRole("button", { name: "Remove https://staging.example.com" });

    await userEvent.click(within(dialog).getByRole("button", { name: "Remove https://shop.example.com" }));
    await vi.waitFor(() => expect(puts.at(-1)).toEqual({ allowedOrigins: ["https://staging.example.com"] }));
  });

  it("is not shown to people who may not manage the widget", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <InstallWidgetButton projectId="p1" canManage={false} />
      </QueryClientProvider>,
    );
    expect(screen.queryByRole("button", { name: "Install widget" })).toBeNull();
  });
});
