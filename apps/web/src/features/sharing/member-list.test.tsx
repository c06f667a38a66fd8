import type { MemberAbilities, ProjectMember, ProjectSummary } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemberList } from "./member-list.tsx";

const NONE: MemberAbilities = {
  changeAccess: false,
  remove: false,
  leave: false,
  makeOwner: false,
  toggleApprover: false,
};
const person = (
  id: string,
  name: string,
  abilities: Partial<MemberAbilities>,
  access: ProjectMember["access"] = "view",
) =>
  ({
    id,
    uid: `uid-${id}`,
    email: `${id}@example.com`,
    displayName: name,
    photoURL: null,
    access,
    isPending: false,
    isApprover: false,
    abilities: { ...NONE, ...abilities },
  }) satisfies ProjectMember;

let members: ProjectMember[] = [];
beforeEach(() => {
  // The API the list reads: the people of the project, and who is signed in.
  vi.stubGlobal("fetch", async (input: string) => {
    const body = String(input).endsWith("/members")
      ? { data: members }
      : { data: { uid: "uid-me", email: "me@example.com", displayName: "Me" } };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderList() {
  const project = {
    id: "p1",
    abilities: { manageMembers: true, manageApprovers: true, transfer: true },
  } as unknown as ProjectSummary;
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemberList project={project} onLeft={() => {}} />
    </QueryClientProvider>,
  );
}

describe("the people list follows each person's abilities", () => {
  it("offers an access control, a menu and an approver switch only where the server allows them", async () => {
    members = [
      person("owner", "Olive Owner", {}, "owner"),
      person("me", "Me", { leave: true }),
      person("bob", "Bob", { changeAccess: true, remove: true, makeOwner: true, toggleApprover: true }),
      person("cat", "Cat", { toggleApprover: true }),
    ];
    renderList();
    await waitFor(() => expect(screen.getByText("Bob")).toBeTruthy());
    expect(screen.getByRole("combobox", { name: "Access for Bob" })).toBeTruthy();
    expect(screen.queryByRole("combobox", { name: "Access for Cat" })).toBeNull();
    expect(screen.queryByRole("combobox", { name: "Access for Me" })).toBeNull();
    expect(screen.getByRole("button", { name: "More actions for Bob" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "More actions for Cat" })).toBeNull();
    expect(screen.getByRole("switch", { name: "Approver: Cat" })).toBeTruthy();
    expect(screen.queryByRole("switch", { name: "Approver: Me" })).toBeNull();
    expect(screen.getByRole("button", { name: "Leave project" })).toBeTruthy();
  });

  it("shows a read-only list when nothing is allowed", async () => {
    members = [person("owner", "Olive Owner", {}, "owner"), person("bob", "Bob", {})];
    renderList();
    await waitFor(() => expect(screen.getByText("Bob")).toBeTruthy());
    expect(screen.queryAllByRole("combobox")).toEqual([]);
    expect(screen.queryAllByRole("switch")).toEqual([]);
    expect(screen.queryByRole("button", { name: "Leave project" })).toBeNull();
  });
});
