import type { ChangeAbilities, InspectChange } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ActivityPanel } from "./activity-panel.tsx";

afterEach(cleanup);

const change = (id: string, abilities: ChangeAbilities): InspectChange =>
  ({
    id,
    projectId: "p1",
    pageId: "g1",
    versionId: "v1",
    changeType: "style",
    querySelector: `#box-${id}`,
    anchor: { querySelector: `#box-${id}` },
    property: "color",
    value: "rgb(255, 0, 0)",
    before: null,
    after: null,
    imageDimensions: null,
    deviceSize: "desktop",
    count: 1,
    isHidden: false,
    isResolved: false,
    resolvedBy: null,
    userId: "u1",
    author: { uid: "u1", displayName: "Ada", photoURL: null, isGuest: false },
    createdAt: "2026-11-24T10:00:00.000Z",
    groupCreatedAt: "2026-11-24T10:00:00.000Z",
    modifiedAt: "2026-11-24T10:00:00.000Z",
    abilities,
  }) as unknown as InspectChange;

const renderPanel = (changes: InspectChange[]) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ActivityPanel versionId="v1" changes={changes} isLoading={false} />
    </QueryClientProvider>,
  );

describe("suggested edits show the controls each change allows", () => {
  it("offers resolve, hide and delete to a reader who may manage them", () => {
    renderPanel([change("a", { resolve: true, hide: true, delete: true })]);
    expect(screen.getByRole("button", { name: "Resolve edit" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Hide edit" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Delete edit" })).toBeTruthy();
  });

  it("shows a reader who may not manage them the edits alone, and the export", () => {
    renderPanel([change("a", { resolve: false, hide: false, delete: false })]);
    expect(screen.getByRole("list", { name: "Suggested edits" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Resolve edit" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Hide edit" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Delete edit" })).toBeNull();
    expect(screen.getByRole("button", { name: /Copy as CSS/ })).toBeTruthy();
  });

  it("says so when there is nothing yet", () => {
    renderPanel([]);
    expect(screen.getByText("No suggested edits yet")).toBeTruthy();
  });
});
