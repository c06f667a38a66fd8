import { describe, expect, it } from "vitest";
import {
  createTeamSchema,
  defaultTeamName,
  inviteTeamMemberSchema,
  teamDisplayName,
  updateTeamMemberSchema,
} from "./teams.ts";

describe("teams", () => {
  it("names a new team after its owner (SPEC §3), and an unnamed one 'Untitled team' (SPEC §2)", () => {
    expect(defaultTeamName("Ada Lovelace")).toBe("Ada Lovelace's Team");
    expect(defaultTeamName("  ")).toBe("Untitled team");
    expect(teamDisplayName({ name: "" })).toBe("Untitled team");
    expect(teamDisplayName({ name: "Studio" })).toBe("Studio");
  });
  it("accepts a product and an optional name, an address and a team access", () => {
    expect(createTeamSchema.parse({ product: "browse" })).toEqual({ product: "browse" });
    expect(createTeamSchema.safeParse({ product: "video" }).success).toBe(false);
    expect(inviteTeamMemberSchema.safeParse({ email: "a@example.com", access: "collaborator" }).success).toBe(
      true,
    );
    expect(inviteTeamMemberSchema.safeParse({ email: "nope", access: "member" }).success).toBe(false);
    expect(updateTeamMemberSchema.safeParse({ access: "owner" }).success).toBe(false);
  });
});
