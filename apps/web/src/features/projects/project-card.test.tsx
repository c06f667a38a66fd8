import type { ProjectAbilities, ProjectSummary } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ProjectCard } from "./project-card.tsx";

afterEach(cleanup);

const ALL: ProjectAbilities = {
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
const READ_ONLY: ProjectAbilities = Object.fromEntries(
  Object.keys(ALL).map((key) => [key, key === "read"]),
) as unknown as ProjectAbilities;

const project = (abilities: ProjectAbilities, fields: Partial<ProjectSummary> = {}): ProjectSummary => ({
  id: "p1",
  title: "Landing page",
  type: "web",
  owner: "u1",
  isPluginDisabled: false,
  access: abilities.update ? "owner" : "view",
  isArchived: false,
  createdAt: "2026-11-24T10:00:00.000Z",
  modifiedAt: "2026-11-24T10:00:00.000Z",
  expiresAt: null,
  isExpired: false,
  thumbnail: null,
  sortOrder: 0,
  pageCount: 5,
  pageLimit: 5,
  pagesLeft: 0,
  team: null,
  abilities,
  ...fields,
});

const renderCard = (summary: ProjectSummary) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ul>
          <ProjectCard project={summary} />
        </ul>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe("a project card", () => {
  it("lets someone who may update it rename it in place, and shows the plan's page tag", () => {
    renderCard(project(ALL));
    expect(screen.getByRole("button", { name: "Rename project: Landing page" })).toBeTruthy();
    expect(screen.getByText("Limit reached")).toBeTruthy();
  });

  it("shows a reader the title as a link, with no rename", () => {
    renderCard(project(READ_ONLY, { pageCount: 2, pagesLeft: 3 }));
    expect(screen.queryByRole("button", { name: "Rename project: Landing page" })).toBeNull();
    expect(screen.getByRole("link", { name: "Landing page" }).getAttribute("href")).toBe("/project/p1");
    expect(screen.getByText("Free Plan")).toBeTruthy();
  });

  it("names the team a team project belongs to, and nothing for a project of one's own", () => {
    renderCard(project(ALL, { team: { id: "t1", name: "Studio" } }));
    expect(screen.getByText("Team: Studio")).toBeTruthy();
    cleanup();
    renderCard(project(ALL, { team: { id: "t1", name: "  " } }));
    expect(screen.getByText("Team: Untitled team")).toBeTruthy();
    cleanup();
    renderCard(project(ALL));
    expect(screen.queryByText(/^Team:/)).toBeNull();
  });

  it("says neither pages nor a page limit on a bug-tracking project, which holds tickets", () => {
    renderCard(project(ALL, { type: "browse", title: "Shop bugs" }));
    expect(screen.getByText("Bug tracking")).toBeTruthy();
    expect(screen.queryByText(/pages?$/)).toBeNull();
    expect(screen.queryByText("Limit reached")).toBeNull();
    expect(screen.queryByText("Free Plan")).toBeNull();
  });
});
