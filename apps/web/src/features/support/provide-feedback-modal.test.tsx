import type { User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { user as fixtureUser, stubApi } from "../billing/billing-fixtures.ts";
import { ProvideFeedbackModal } from "./provide-feedback-modal.tsx";
import { closeSupportDialog, useSupportDialog } from "./support-store.ts";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  closeSupportDialog();
});

const TITLE = "How is Redline working for you?";

function someone(counters: Partial<User["counters"]>, onboarding: User["onboarding"]): User {
  return fixtureUser(undefined, {
    onboarding,
    counters: {
      projectsCount: 0,
      projectPagesCount: 0,
      projectShareCount: 0,
      projectEditorsCount: 0,
      projectsEditors: 0,
      ...counters,
    },
  });
}

function OpenDialog() {
  return <p>open: {useSupportDialog() ?? "none"}</p>;
}

function renderModal(user: User, projects = 2) {
  const sent = stubApi({
    "GET /api/projects": { body: { data: Array.from({ length: projects }, (_, i) => ({ id: `p${i}` })) } },
    "PATCH /api/me": (body) => ({
      body: { data: { ...user, onboarding: { ...user.onboarding, ...(body as User).onboarding } } },
    }),
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ProvideFeedbackModal user={user} />
      <OpenDialog />
    </QueryClientProvider>,
  );
  return sent;
}

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe("the provide-feedback modal (SPEC §9)", () => {
  it("is offered 10 s after load to a user with 2 owned projects who earned it; answering sets the flag", async () => {
    const sent = renderModal(
      someone({ projectsCount: 2, projectPagesCount: 3 }, { provideFeedbackWT: true }),
    );
    await wait(9_000);
    expect(screen.queryByText(TITLE)).toBeNull();
    await wait(1_500);
    expect(screen.getByText(TITLE)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Send Feedback" }));
    await wait(300);
    expect(screen.queryByRole("heading", { name: TITLE })).toBeNull();
    expect(screen.getByText("open: feedback")).toBeTruthy();
    expect(sent.filter((request) => request.method === "PATCH")).toEqual([
      { method: "PATCH", path: "/api/me", body: { onboarding: { provideFeedbackModal: true } } },
    ]);
  });

  it("is not offered with one owned project, only one project in all, or once answered", async () => {
    for (const [user, projects] of [
      [someone({ projectsCount: 1, projectPagesCount: 3 }, { provideFeedbackWT: true }), 4],
      [someone({ projectsCount: 2, projectPagesCount: 3 }, { provideFeedbackWT: true }), 1],
      [
        someone(
          { projectsCount: 3, projectPagesCount: 3 },
          { provideFeedbackWT: true, provideFeedbackModal: true },
        ),
        3,
      ],
    ] as const) {
      renderModal(user, projects);
      await wait(11_000);
      expect(screen.queryByText(TITLE)).toBeNull();
      cleanup();
    }
  });

  it("earns provideFeedbackWT with the first page in an own project, and asks nothing yet", async () => {
    const sent = renderModal(someone({ projectsCount: 2, projectPagesCount: 1 }, {}));
    await wait(11_000);
    expect(sent.filter((request) => request.method === "PATCH")).toEqual([
      { method: "PATCH", path: "/api/me", body: { onboarding: { provideFeedbackWT: true } } },
    ]);
    expect(screen.queryByText(TITLE)).toBeNull();
  });
});
