import { describe, expect, it } from "vitest";
import { pickTeam } from "./active-team.ts";

const teams = [
  { id: "b1", product: "browse" as const },
  { id: "w1", product: "web" as const },
  { id: "w2", product: "web" as const },
];

describe("the team /team shows (SPEC §5)", () => {
  it("is the one remembered for the product while the user still belongs to it", () => {
    expect(pickTeam(teams, "web", "w2")?.id).toBe("w2");
  });
  it("else the product's first team — never another product's", () => {
    expect(pickTeam(teams, "web", null)?.id).toBe("w1");
    expect(pickTeam(teams, "web", "gone")?.id).toBe("w1");
    expect(pickTeam(teams, "web", "b1")?.id).toBe("w1");
    expect(pickTeam(teams, "browse", "w2")?.id).toBe("b1");
  });
  it("is none without a team of the product", () => {
    expect(pickTeam(teams.slice(0, 1), "web", "b1")).toBeNull();
  });
});
