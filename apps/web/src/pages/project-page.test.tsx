import type { ProjectAbilities, ProjectDetail, User } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FREE_PLAN, stubApi, user } from "../features/billing/billing-fixtures.ts";
import { EXPIRED_TEXT } from "../features/projects/expired-notice.tsx";
import { ME_KEY } from "../features/session/use-me.ts";
import { ProjectHomePage, ProjectLayout } from "./project-page.tsx";

// The project's room would open a WebSocket; nothing is realtime here.
vi.mock("../lib/realtime.ts", () => ({ realtime: () => ({ subscribe: () => () => undefined }) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const EDIT: ProjectAbilities = {
  read: true,
  update: true,
  archive: true,
  delete: true,
  addPages: true,
  updatePages: true,
  deletePages: true,
  manageMembers: true,
  transfer: true,
  moveToTeam: true,
  manageApprovers: true,
  approvePages: true,
  comment: true,
  attachFiles: true,
  suggestEdits: true,
};
/** What the server sends for an expired project its owner opens: read, archive and delete only. */
const EXPIRED: ProjectAbilities = Object.fromEntries(
  Object.keys(EDIT).map((key) => [key, key === "read" || key === "archive" || key === "delete"]),
) as unknown as ProjectAbilities;

const project = (fields: Partial<ProjectDetail> = {}): ProjectDetail => ({
  id: "p1",
  title: "Checkout flow",
  type: "webapp",
  owner: "u1",
  isPluginDisabled: false,
  access: "owner",
  isArchived: false,
  createdAt: "2026-11-20T10:00:00.000Z",
  modifiedAt: "2026-11-20T10:00:00.000Z",
  expiresAt: null,
  isExpired: false,
  thumbnail: null,
  sortOrder: 0,
  pageCount: 1,
  pageLimit: 5,
  pagesLeft: 4,
  team: null,
  abilities: EDIT,
  pages: [
    {
      id: "pg1",
      createdAt: "2026-11-20T10:00:00.000Z",
      url: "https://example.com/cart",
      title: "Cart",
      isApproved: false,
      isArchived: false,
      isPDF: false,
      numberOfVersions: 0,
      thumbnail: null,
      versions: [],
    } as unknown as ProjectDetail["pages"][number],
  ],
  sharing: {
    public: false,
    canComment: false,
    showAllPages: true,
    showPageVersions: true,
    showEdits: false,
    hideDeviceToolbar: false,
  },
  approvers: [],
  ...fields,
});

function renderProject(detail: ProjectDetail, me: User = user()) {
  stubApi({
    "GET /api/me": { body: { data: me } },
    "GET /api/projects/p1": { body: { data: detail } },
    "GET /api/projects/p1/members": { body: { data: [] } },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The app layout has the session user before any page shows.
  queryClient.setQueryData(ME_KEY, me);
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={["/project/p1"]}>
        <Routes>
          <Route path="/project/:projectId" element={<ProjectLayout />}>
            <Route index element={<ProjectHomePage />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const expiredProject = () =>
  project({ isExpired: true, expiresAt: "2026-11-22T10:00:00.000Z", abilities: EXPIRED });

describe("an expired project", () => {
  it("says it is read-only, offers the upgrade, and shows no add-page control", async () => {
    renderProject(expiredProject());
    expect(await screen.findByText(EXPIRED_TEXT)).toBeTruthy();
    const upgrade = await screen.findByRole("link", { name: "Upgrade to keep working on it" });
    expect(upgrade.getAttribute("href")).toBe("/upgrade");
    expect(screen.getByText("Expired")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Add pages" })).toBeNull();
    expect(screen.queryByLabelText("Page URL")).toBeNull();
    expect(screen.queryByRole("button", { name: "Add page" })).toBeNull();
    expect(screen.queryByText("Upload image or PDF")).toBeNull();
    expect(screen.queryByRole("button", { name: /^Rename project/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Rename page/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Update all/ })).toBeNull();
  });

  it("offers no upgrade when the user's plan hides upsells", async () => {
    renderProject(
      expiredProject(),
      user({ ...FREE_PLAN, name: "Lifetime tier 1", isFree: false, hideUpsells: true }),
    );
    expect(await screen.findByText(EXPIRED_TEXT)).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Upgrade to keep working on it" })).toBeNull();
  });
});

describe("a project that has not expired", () => {
  it("shows no notice, and the add-page controls its abilities allow", async () => {
    renderProject(project());
    expect(await screen.findByRole("region", { name: "Add pages" })).toBeTruthy();
    expect(screen.getByLabelText("Page URL")).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Rename project/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Rename page/ })).toBeTruthy();
    expect(screen.queryByText(EXPIRED_TEXT)).toBeNull();
  });
});
