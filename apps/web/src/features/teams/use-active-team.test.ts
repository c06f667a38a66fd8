import type { Team } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { teamsForNewProjects } from "./use-active-team.ts";

const team = (id: string, fields: Partial<Team> = {}) =>
  ({ id, product: "web", isDisabled: false, role: "member", ...fields }) as Team;

describe("teams a new project can belong to", () => {
  it("are the product's enabled teams where the user is more than a collaborator", () => {
    const teams = [
      team("owned", { role: "owner" }),
      team("managed", { role: "manager" }),
      team("member"),
      team("collaborating", { role: "collaborator" }),
      team("disabled", { isDisabled: true }),
      team("browse", { product: "browse" }),
    ];
    expect(teamsForNewProjects(teams, "web").map((entry) => entry.id)).toEqual([
      "owned",
      "managed",
      "member",
    ]);
    expect(teamsForNewProjects(teams, "browse").map((entry) => entry.id)).toEqual(["browse"]);
  });
});
