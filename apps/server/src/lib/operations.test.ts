import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError, z } from "zod";
import { users } from "../db/schema/index.ts";
import { createProject, updateProject } from "../modules/projects/projects.operations.ts";
import { joinSharedProject, updateSharing } from "../modules/sharing/sharing.operations.ts";
import { createTeam, renameTeam } from "../modules/teams/teams.operations.ts";
import { signUpPerson } from "../testing/people.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { routeDrivers } from "../testing/test-db.ts";
import { NotFoundError } from "./errors.ts";
import { registeredOperations, requestInput, withParams } from "./operations.ts";

describe("an operation's input", () => {
  const input = withParams(
    z.object({ teamId: z.string().min(1) }),
    z
      .object({ name: z.string().optional() })
      .strict()
      .refine((body) => body.name !== undefined, "Say a name."),
  );

  it("takes the path's parameters over the body's fields", () => {
    expect(input.parse(requestInput({ body: { name: "A" }, params: { teamId: "t1" } }))).toEqual({
      teamId: "t1",
      name: "A",
    });
    expect(requestInput({ body: { teamId: "evil" }, params: { teamId: "t1" } }).teamId).toBe("t1");
  });

  it("keeps the body's refinements and strictness, and names what is wrong", () => {
    expect(() => input.parse({ teamId: "t1" })).toThrow("Say a name.");
    expect(() => input.parse({ teamId: "t1", name: "A", extra: 1 })).toThrow(ZodError);
    expect(() => input.parse({ name: "A" })).toThrow(ZodError);
  });

  it("refuses a body that is not a JSON object", () => {
    expect(() => requestInput({ body: [1, 2] })).toThrow("The request body must be a JSON object.");
    expect(() => requestInput({ body: "text" })).toThrow("The request body must be a JSON object.");
    expect(requestInput({ params: { id: "x" } })).toEqual({ id: "x" });
  });
});

describe.each(routeDrivers())("an operation called without HTTP (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver });
  });
  afterAll(() => t.close());

  const actorOf = async (uid: string) => {
    const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, uid));
    return { kind: "session" as const, user: user!, sessionCreatedAt: new Date() };
  };

  it("validates, authorizes through the policy and writes, as its route does", async () => {
    const owner = await actorOf((await signUpPerson(t, "OpsOwner")).uid);
    const stranger = await actorOf((await signUpPerson(t, "OpsStranger")).uid);
    const { data: team } = await createTeam(t.ctx, owner, { product: "web", name: "Ops team" });
    await expect(renameTeam(t.ctx, owner, { teamId: team.id, name: "" })).rejects.toThrow(ZodError);
    await expect(renameTeam(t.ctx, stranger, { teamId: team.id, name: "Mine" })).rejects.toThrow(
      NotFoundError,
    );
    const renamed = await renameTeam(t.ctx, owner, { teamId: team.id, name: "Renamed" });
    expect(renamed.data.name).toBe("Renamed");
    expect(registeredOperations().get("teams.rename")).toBe(renameTeam);
  });

  it("creates and renames a project, and a visitor joins it through its link, without HTTP", async () => {
    const owner = await actorOf((await signUpPerson(t, "OpsProjectOwner")).uid);
    const visitor = await actorOf((await signUpPerson(t, "OpsVisitor")).uid);
    const { data: project } = await createProject(t.ctx, owner, { type: "web", title: "Ops project" });
    await expect(updateProject(t.ctx, visitor, { projectId: project.id, title: "Mine" })).rejects.toThrow(
      NotFoundError,
    );
    // The link is off: nobody joins through it.
    await expect(joinSharedProject(t.ctx, visitor, { projectId: project.id })).rejects.toThrow(NotFoundError);
    await updateSharing(t.ctx, owner, { projectId: project.id, public: true });
    expect(await joinSharedProject(t.ctx, visitor, { projectId: project.id })).toEqual({
      data: { access: "comment" },
    });
    const renamed = await updateProject(t.ctx, owner, { projectId: project.id, title: "Renamed" });
    expect(renamed.data.title).toBe("Renamed");
    expect(registeredOperations().get("projects.create")).toBe(createProject);
  });
});
