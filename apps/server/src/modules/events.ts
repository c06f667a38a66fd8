/**
 * Every module's domain-event consumers (issue #28), registered when their file loads: which rooms an
 * event reaches and what each reader sees (lib/realtime.ts `fanOut`, `readerView`), and who is notified
 * (notifications.rules.ts). Loaded once by the app before the hub and the consumers start, so a process
 * that works the consumers knows every rule even where it serves no route of that module.
 */
import "./comments/comments.events.ts";
import "./inspect/inspect.events.ts";
import "./members/members.events.ts";
import "./notifications/notifications.announce.ts";
import "./pages/pages.events.ts";
import "./slides/slides.events.ts";
import "./teams/teams.events.ts";
import "./tickets/tickets.events.ts";
