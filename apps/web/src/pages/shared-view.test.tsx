import type { ProjectSharing } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "../features/billing/billing-fixtures.ts";
import { COMMENT_MODE_HINT } from "../features/comments/comment-workspace.tsx";
import type { SharedProject } from "../features/sharing/shared-queries.ts";
import { SharedProjectView } from "./shared-view.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SHARING: ProjectSharing = {
  public: true,
  canComment: true,
  showAllPages: true,
  showPageVersions: true,
  showEdits: false,
  hideDeviceToolbar: false,
};

const shared = (access: SharedProject["access"]): SharedProject => ({
  id: "p1",
  title: "Checkout flow",
  type: "web",
  access,
  sharing: SHARING,
  pages: [
    {
      id: "pg1",
      createdAt: "2026-11-20T10:00:00.000Z",
      url: "https://example.com/cart",
      title: "Cart",
      isApproved: false,
      isArchived: false,
      isPDF: false,
      numberOfVersions: 1,
      thumbnail: null,
      versions: [
        {
          id: "v1",
          pageId: "pg1",
          number: 1,
          title: "Version 1",
          kind: "image",
          status: "ready",
          stage: null,
          failureReason: null,
          createdAt: "2026-11-20T10:00:00.000Z",
        },
      ],
    } as unknown as SharedProject["pages"][number],
  ],
});

function renderShared(project: SharedProject) {
  stubApi({});
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={["/share/p1"]}>
        <SharedProjectView
          project={project}
          guest={{ name: "Grace", identity: "g1", email: null, avatarIndex: 1 }}
          variant="share"
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("a project seen through its public link", () => {
  it("lets a guest comment when the server grants comment access", () => {
    renderShared(shared("comment"));
    expect(screen.getAllByText(COMMENT_MODE_HINT).length).toBeGreaterThan(0);
  });

  it("is read-only when the server says view — an expired project, although the link allows comments", () => {
    renderShared(shared("view"));
    expect(screen.queryByText(COMMENT_MODE_HINT)).toBeNull();
  });
});
