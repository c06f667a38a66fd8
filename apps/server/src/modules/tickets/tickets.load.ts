/**
 * Loading what a board route acts on, with the actor's access to its project (projects.load.ts: an
 * expired project comes back read-only). Only bug-tracking projects have a board: any other project — and
 * anything of it — is answered as not found.
 */
import { productOf } from "@redline/shared";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import {
  browseLists,
  projectCollaborators,
  projectMembers,
  projects,
  teamMembers,
  teams,
  ticketEntries,
  tickets,
  users,
} from "../../db/schema/index.ts";
import { together } from "../../db/together.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { Actor } from "../auth/session.ts";
import { type LoadedProject, loadProject } from "../project-access/projects.load.ts";

const boardNotFound = () => new NotFoundError("This project has no board.", "board-not-found");

export async function loadBoardProject(
  db: Database,
  actor: Actor | null,
  projectId: string,
): Promise<LoadedProject> {
  const loaded = await loadProject(db, actor, projectId);
  if (productOf(loaded.project.type) !== "browse") throw boardNotFound();
  return loaded;
}

export async function loadList(db: Database, actor: Actor | null, listId: string) {
  const [list] = await db.select().from(browseLists).where(eq(browseLists.id, listId));
  if (!list) throw new NotFoundError("List not found.", "list-not-found");
  return { list, ...(await loadBoardProject(db, actor, list.projectId)) };
}

export async function loadTicket(db: Database, actor: Actor | null, ticketId: string) {
  const [ticket] = await db.select().from(tickets).where(eq(tickets.id, ticketId));
  if (!ticket) throw new NotFoundError("Ticket not found.", "ticket-not-found");
  return { ticket, ...(await loadBoardProject(db, actor, ticket.projectId)) };
}

export async function loadTicketEntry(db: Database, ticketId: string, entryId: string) {
  const [entry] = await db
    .select()
    .from(ticketEntries)
    .where(and(eq(ticketEntries.id, entryId), eq(ticketEntries.ticketId, ticketId)));
  if (!entry) throw new NotFoundError("Entry not found.", "entry-not-found");
  return entry;
}

/** One of the project's people with an account, as tickets show them. */
export interface BoardPerson {
  id: string;
  displayName: string;
  photoURL: string | null;
  /** Tickets may be assigned to them: the owner, the members, and the team's people who edit. */
  isAssignable: boolean;
}

/**
 * The project's people with an account (never a deleted user): its owner, its members who accepted, and
 * for a team project the team's owner, managers and members and the collaborators switched into it.
 * Entries, reporters and assignees outside this set show as 'Deleted User' (SPEC §6).
 */
export async function boardPeople(db: Database, projectId: string): Promise<Map<string, BoardPerson>> {
  const person = { id: users.id, displayName: users.displayName, photoURL: users.photoURL };
  const live = eq(users.isDeleted, false);
  const [owners, members, teamOwners, team] = await together(db, [
    () =>
      db
        .select(person)
        .from(projects)
        .innerJoin(users, eq(users.id, projects.ownerId))
        .where(and(eq(projects.id, projectId), live)),
    () =>
      db
        .select(person)
        .from(projectMembers)
        .innerJoin(users, eq(users.id, projectMembers.userId))
        .where(and(eq(projectMembers.projectId, projectId), isNotNull(projectMembers.userId), live)),
    () =>
      db
        .select(person)
        .from(projects)
        .innerJoin(teams, eq(teams.id, projects.teamId))
        .innerJoin(users, eq(users.id, teams.ownerId))
        .where(and(eq(projects.id, projectId), live)),
    () =>
      db
        .select({ ...person, access: teamMembers.access, toggledIn: projectCollaborators.userId })
        .from(projects)
        .innerJoin(teamMembers, eq(teamMembers.teamId, projects.teamId))
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .leftJoin(
          projectCollaborators,
          and(eq(projectCollaborators.projectId, projects.id), eq(projectCollaborators.userId, users.id)),
        )
        .where(and(eq(projects.id, projectId), live)),
  ]);
  const people = new Map<string, BoardPerson>();
  const add = (row: { id: string; displayName: string; photoURL: string | null }, isAssignable: boolean) => {
    const known = people.get(row.id);
    people.set(row.id, { ...row, isAssignable: isAssignable || (known?.isAssignable ?? false) });
  };
  for (const row of [...owners, ...members, ...teamOwners]) add(row, true);
  for (const { access, toggledIn, ...row } of team) {
    if (access !== "collaborator") add(row, true);
    else if (toggledIn) add(row, false);
  }
  return people;
}

/** Ticket rows by id (any project): for checks that ids name tickets of this project. */
export async function ticketRowsOf(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select().from(tickets).where(inArray(tickets.id, ids));
}
