import type { User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Snackbars } from "../../components/snackbars.tsx";
import { ME_KEY } from "../session/use-me.ts";
import { PRO_PLAN, stubApi, user } from "./billing-fixtures.ts";
import { readStoredPrivilege, storePrivilege } from "./privilege-grant.ts";
import { useStoredPrivilege } from "./use-stored-privilege.ts";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function Layout({ me }: { me: User }) {
  useStoredPrivilege(me);
  return <Snackbars />;
}

function renderLayout(me: User, answer: Parameters<typeof stubApi>[0][string]) {
  const sent = stubApi({ "POST /api/me/privilege": answer });
  const queryClient = new QueryClient();
  queryClient.setQueryData(ME_KEY, me);
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Layout me={me} />
    </QueryClientProvider>,
  );
  return { sent, queryClient, view };
}

const posts = (sent: ReturnType<typeof stubApi>) => sent.filter((request) => request.method === "POST");

describe("taking a stored privilege grant", () => {
  it("takes it once for a verified user: the updated user, the server's message, the grant removed", async () => {
    storePrivilege({ plan: "team", token: "tok-ok" });
    const updated = user(PRO_PLAN, { displayName: "Ada (Team)" });
    const { sent, queryClient, view } = renderLayout(user(), {
      body: { data: updated, message: "Your plan has been activated." },
    });
    expect(await screen.findByText("Your plan has been activated.")).toBeTruthy();
    expect(posts(sent)).toEqual([
      { method: "POST", path: "/api/me/privilege", body: { plan: "team", token: "tok-ok" } },
    ]);
    expect(readStoredPrivilege()).toBeNull();
    await waitFor(() => expect(queryClient.getQueryData(ME_KEY)).toEqual(updated));

    // Landing somewhere else later sends nothing more.
    view.rerender(
      <QueryClientProvider client={queryClient}>
        <Layout me={updated} />
      </QueryClientProvider>,
    );
    expect(posts(sent)).toHaveLength(1);
  });

  it.each([
    [404, "grant-invalid", "This privilege link is not valid."],
    [409, "grant-used", "This has already been used."],
    [409, "grant-expired", "This privilege link has expired."],
  ])(
    "on %i %s shows the server's message as an error and removes the grant",
    async (status, code, message) => {
      storePrivilege({ plan: "pro", token: `tok-${code}` });
      renderLayout(user(), { status, body: { error: "Conflict", code, message } });
      const text = await screen.findByText(message);
      expect(text.closest(".snackbar")?.getAttribute("role")).toBe("alert");
      expect(readStoredPrivilege()).toBeNull();
    },
  );

  it("waits while the e-mail is not verified", async () => {
    storePrivilege({ plan: "team", token: "tok-unverified" });
    const { sent } = renderLayout(user(undefined, { emailVerified: false }), { body: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(posts(sent)).toEqual([]);
    expect(readStoredPrivilege()).toEqual({ plan: "team", token: "tok-unverified" });
  });

  it("sends nothing when no grant is stored", async () => {
    const { sent } = renderLayout(user(), { body: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(posts(sent)).toEqual([]);
  });

  it("keeps the grant when the server could not be reached, for the next visit", async () => {
    storePrivilege({ plan: "standard", token: "tok-offline" });
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    const queryClient = new QueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <Layout me={user()} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(/Could not reach the server/)).toBeTruthy();
    expect(readStoredPrivilege()).toEqual({ plan: "standard", token: "tok-offline" });
  });

  it("ignores a broken stored entry and removes it", () => {
    localStorage.setItem("redline.privilege", "{not json");
    expect(readStoredPrivilege()).toBeNull();
    expect(localStorage.getItem("redline.privilege")).toBeNull();
  });
});
