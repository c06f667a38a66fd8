import { MIN_PASSWORD_LENGTH } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SignUpForm } from "./sign-up-form.tsx";

// The form asks the server for its configuration (is Google sign-in on?); here nothing is configured.
beforeEach(() => {
  vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ data: {} }), { status: 200 }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderForm = (path: string) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <SignUpForm />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe("the sign-up form", () => {
  it("asks for a name, an e-mail and a new password of the spec's length, each named", () => {
    renderForm("/signup");
    expect((screen.getByLabelText("Full name") as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText("Email") as HTMLInputElement).type).toBe("email");
    const password = screen.getByLabelText("Password") as HTMLInputElement;
    expect(password.minLength).toBe(MIN_PASSWORD_LENGTH);
    expect(password.autocomplete).toBe("new-password");
    expect(screen.getByText(`At least ${MIN_PASSWORD_LENGTH} characters.`)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create account" })).toBeTruthy();
  });

  it("keeps where the visitor was going on the way to sign-in, and never an off-site address", () => {
    renderForm("/signup?goto=%2Fproject%2Fp1");
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/?goto=%2Fproject%2Fp1");
    cleanup();
    renderForm("/signup?goto=https%3A%2F%2Fevil.example");
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).not.toContain("evil");
  });
});
