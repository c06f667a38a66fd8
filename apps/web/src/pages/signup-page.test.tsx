import type { User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type StubResponse, stubApi, user } from "../features/billing/billing-fixtures.ts";
import { PRIVILEGE_STORAGE_KEY, readStoredPrivilege } from "../features/billing/privilege-grant.ts";
import { PrivilegeSignUpPage, SignUpPage } from "./signup-page.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const SIGNED_OUT = { status: 401, body: { code: "unauthorized", message: "Sign in" } };

const USABLE: StubResponse = { body: { data: { usable: true, message: null } } };

function renderAt(path: string, me: User | null = null, linkState: StubResponse = USABLE) {
  const sent = stubApi({
    "GET /api/me": me ? { body: { data: me } } : SIGNED_OUT,
    "GET /api/config": { body: {} },
    "GET /api/privilege-links/team": linkState,
    "GET /api/privilege-links/pro": linkState,
    "GET /api/privilege-links/standard": linkState,
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/signup" element={<SignUpPage />} />
          <Route path="/signup/start-privilege/:plan" element={<PrivilegeSignUpPage />} />
          <Route path="/projects" element={<h1>All projects</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return sent;
}

describe("privilege-link sign-up", () => {
  it.each([
    ["team", "Team"],
    ["pro", "Pro"],
    ["standard", "Standard"],
  ])("/signup/start-privilege/%s names the plan above the form and keeps the grant", async (plan, name) => {
    renderAt(`/signup/start-privilege/${plan}?token=tok-${plan}`);
    expect(await screen.findByText(`Sign up to activate your ${name} plan.`)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create account" })).toBeTruthy();
    expect(readStoredPrivilege()).toEqual({ plan, token: `tok-${plan}` });
    expect(JSON.parse(localStorage.getItem(PRIVILEGE_STORAGE_KEY)!)).toEqual({ plan, token: `tok-${plan}` });
  });

  it("keeps the grant while the new user verifies their e-mail", async () => {
    renderAt("/signup/start-privilege/team?token=tok", user(undefined, { emailVerified: false }));
    expect(await screen.findByText("Verify your email to activate your Team plan.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Resend verification email" })).toBeTruthy();
    expect(readStoredPrivilege()).toEqual({ plan: "team", token: "tok" });
  });

  it("sends a verified user on to /projects with the grant kept, for the app to take at once", async () => {
    const sent = renderAt("/signup/start-privilege/pro?token=tok", user());
    expect(await screen.findByRole("heading", { name: "All projects" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Create account" })).toBeNull();
    expect(readStoredPrivilege()).toEqual({ plan: "pro", token: "tok" });
    // The page itself sends nothing; the app layout takes the grant (use-stored-privilege).
    expect(sent.filter((request) => request.method === "POST")).toEqual([]);
  });

  it("says so when the link has an unknown plan or no token, and keeps nothing", async () => {
    renderAt("/signup/start-privilege/gold?token=tok");
    expect(await screen.findByText(/This privilege link is not valid\./)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create account" })).toBeTruthy();
    cleanup();
    renderAt("/signup/start-privilege/team");
    expect(await screen.findByText(/This privilege link is not valid\./)).toBeTruthy();
    expect(readStoredPrivilege()).toBeNull();
  });

  it("tells a used link so before sign-up, promises no plan and keeps nothing", async () => {
    renderAt("/signup/start-privilege/team?token=tok", null, {
      body: { data: { usable: false, message: "This has already been used." } },
    });
    expect(await screen.findByText(/This has already been used\./)).toBeTruthy();
    expect(screen.getByText(/ask for a new link to get the plan/)).toBeTruthy();
    expect(screen.queryByText(/activate your/)).toBeNull();
    expect(screen.getByRole("button", { name: "Create account" })).toBeTruthy();
    await vi.waitFor(() => expect(readStoredPrivilege()).toBeNull());
  });

  it("plain /signup names no plan", async () => {
    renderAt("/signup");
    expect(await screen.findByRole("button", { name: "Create account" })).toBeTruthy();
    expect(screen.queryByText(/activate your/)).toBeNull();
  });
});
