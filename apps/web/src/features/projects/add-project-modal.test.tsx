import { PLANS, type ResolvedPlan, type User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ME_KEY } from "../session/use-me.ts";
import { AddProjectModal } from "./add-project-modal.tsx";

afterEach(cleanup);

const plan = (tier: "free" | "standard"): ResolvedPlan => ({
  product: "web",
  name: PLANS.web[tier].name,
  entitlements: PLANS.web[tier].entitlements,
  isFree: tier === "free",
  hideUpsells: false,
});

function renderModal(web: ResolvedPlan) {
  // The user as the server sent it; nothing is fetched again.
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  queryClient.setQueryData(ME_KEY, { uid: "u1", plans: { web, browse: plan("free") } } as unknown as User);
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <AddProjectModal open onOpenChange={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const webApp = () => screen.getByRole("radio", { name: /Web app/ }) as HTMLInputElement;

describe("the add-project modal's web app type (SPEC §6)", () => {
  it("is locked, marked for paid plans, when the plan the server resolved has no web apps", () => {
    renderModal(plan("free"));
    expect(webApp().disabled).toBe(true);
    expect(webApp().closest("label")?.textContent).toContain("Paid plans");
    expect((screen.getByRole("radio", { name: /Website/ }) as HTMLInputElement).disabled).toBe(false);
  });

  it("can be chosen on a plan that includes them", () => {
    renderModal(plan("standard"));
    expect(webApp().disabled).toBe(false);
    expect(webApp().closest("label")?.textContent).not.toContain("Paid plans");
  });
});
