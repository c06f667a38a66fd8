/**
 * SPEC §7 `welcome-user`: a person who signed up through Google gets a welcome mail, once. The send is
 * taken by setting `welcomed_at` where it is still empty, so a second call (a retried hook, another
 * process) sends nothing.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema/index.ts";
import type { Mailer } from "../../lib/mail/mailer.ts";
import { welcomeMail } from "../../lib/mail/templates.ts";

export async function sendWelcomeMail(db: Database, mailer: Mailer, appUrl: string, userId: string) {
  const [taken] = await db
    .update(users)
    .set({ welcomedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.welcomedAt)))
    .returning({ email: users.email, displayName: users.displayName });
  if (!taken) return false;
  await mailer.send(welcomeMail(taken.email, taken.displayName, new URL("/projects", appUrl).toString()));
  return true;
}
