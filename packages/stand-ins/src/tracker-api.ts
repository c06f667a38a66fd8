/**
 * The task-tracker stand-ins' authenticated API handlers (Trello, ClickUp, GitHub, Asana, Jira), each
 * service answering in its own format through them. `callerOf` finds whom the request's credentials name,
 * answering itself when it cannot (an injected fault, 401) and giving null then; a handler runs only for a
 * caller. `about` adds what the path names, as this caller may see it: the handler runs only when it is
 * found, and `missing` answers otherwise (the service's own 404).
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** What the handler is about comes first, then who asks: most handlers need no more. */
type CallerHandler<Caller> = (caller: Caller, request: FastifyRequest, reply: FastifyReply) => unknown;
type SubjectHandler<Caller, Subject> = (
  subject: Subject,
  caller: Caller,
  request: FastifyRequest,
  reply: FastifyReply,
) => unknown;

export function authedHandlers<Caller>(
  callerOf: (request: FastifyRequest, reply: FastifyReply) => Caller | null,
) {
  const authed =
    (handle: CallerHandler<Caller>) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      const caller = callerOf(request, reply);
      if (!caller) return reply;
      return handle(caller, request, reply);
    };
  const about =
    <Subject>(
      subjectOf: (request: FastifyRequest, caller: Caller) => Subject | null | undefined,
      missing: (reply: FastifyReply) => unknown,
    ) =>
    (handle: SubjectHandler<Caller, Subject>) =>
      authed((caller, request, reply) => {
        const subject = subjectOf(request, caller);
        if (subject === null || subject === undefined) return missing(reply);
        return handle(subject, caller, request, reply);
      });
  return Object.assign(authed, { about });
}
