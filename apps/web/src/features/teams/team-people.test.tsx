import type { TeamMember, TeamMemberAbilities } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TeamPeople } from "./team-people.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NONE: TeamMemberAbilities = { changeRole: false, remove: false, leave: false };
const person = (
  id: string | null,
  name: string,
  access: TeamMember["access"],
  abilities: Partial<TeamMemberAbilities> = {},
): TeamMember => ({
  id,
  uid: `uid-${id ?? "owner"}`,
  email: `${name.toLowerCase()}@example.com`,
  displayName: name,
  photoURL: null,
  access,
  isPending: false,
  abilities: { ...NONE, ...abilities },
});

function renderPeople(people: TeamMember[], selfUid = "uid-me", onLeave = () => {}) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TeamPeople
        teamId="team-1"
        label="Team members"
        people={people}
        selfUid={selfUid}
        emptyText="Nobody else is in this team yet."
        onLeave={onLeave}
      />
    </QueryClientProvider>,
  );
}

describe("a team's people", () => {
  it("shows a role select and a remove button only where the server allows them", () => {
    renderPeople([
      person(null, "Olive", "owner"),
      person("m1", "Manny", "manager", { changeRole: true, remove: true }),
      person("m2", "Mia", "member"),
    ]);
    expect(screen.getByRole("combobox", { name: "Role of Manny" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Remove Manny" })).toBeTruthy();
    expect(screen.queryByRole("combobox", { name: "Role of Mia" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Remove Mia" })).toBeNull();
    expect(screen.queryByRole("combobox", { name: "Role of Olive" })).toBeNull();
    expect(screen.getByText("Owner")).toBeTruthy();
    expect(screen.getByText("Member", { selector: ".team-person__role-text" })).toBeTruthy();
  });

  it("offers 'Leave team' on one's own row when allowed, and says who is you", async () => {
    const onLeave = vi.fn();
    renderPeople([person("m9", "Me", "member", { leave: true })], "uid-m9", onLeave);
    expect(screen.getByText("(you)")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Leave team" }));
    expect(onLeave).toHaveBeenCalledOnce();
  });

  it("changes a role through the API with the chosen access", async () => {
    const sent: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
      sent.push({ method: init?.method ?? "GET", url: String(input), body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ data: {}, message: "User access updated." }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    });
    renderPeople([person("m1", "Manny", "member", { changeRole: true })]);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Role of Manny" }), "manager");
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: "PATCH",
      url: "/api/teams/team-1/members/m1",
      body: { access: "manager" },
    });
  });

  it("says so when nobody is listed", () => {
    renderPeople([]);
    expect(screen.getByText("Nobody else is in this team yet.")).toBeTruthy();
  });
});
