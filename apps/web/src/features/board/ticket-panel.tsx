/**
 * A ticket opened beside the board (`?t={id}`, so it deep-links and Back closes it): the editable title
 * and description, assignee, due date, resolve / reopen (with who resolved it), triage when it is a new
 * report, the widget's report, and the thread. Every control follows the ticket's abilities.
 */
import {
  type Board,
  MAX_TICKET_DESCRIPTION,
  MAX_TICKET_TITLE,
  TICKET_MESSAGES,
  type Ticket,
} from "@redline/shared";
import { Check, CircleCheck, LoaderCircle, RotateCcw, Trash2, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { Avatar } from "../../components/avatar.tsx";
import { CardActions } from "../../components/card-actions.tsx";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { isTypingTarget } from "../../components/modal.tsx";
import { TextLimitNote, useTextLimit } from "../../components/text-limit.tsx";
import { isApiError } from "../../lib/api.ts";
import { timeAgo } from "../../lib/time-ago.ts";
import { useDeleteTicket, useTicket, useUpdateTicket } from "./board-queries.ts";
import { bySortKey, isOverdue, localDay } from "./board-rules.ts";
import { TicketReportView } from "./ticket-report.tsx";
import { TicketThread } from "./ticket-thread.tsx";
import { TriageActions } from "./triage-actions.tsx";

export function TicketPanel({
  ticketId,
  board,
  onClose,
}: {
  ticketId: string | null;
  board: Board;
  onClose(): void;
}) {
  return (
    <Dialog.Root open={ticketId !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="ticket-panel__overlay" />
        <Dialog.Content
          className="ticket-panel"
          aria-describedby={undefined}
          onEscapeKeyDown={(event) => {
            if (isTypingTarget(document.activeElement)) event.preventDefault();
          }}
        >
          {ticketId ? <TicketPanelBody ticketId={ticketId} board={board} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function TicketPanelBody({ ticketId, board }: { ticketId: string; board: Board }) {
  const query = useTicket(ticketId);
  const card = board.tickets.find((entry) => entry.id === ticketId);
  const detail = query.data;
  const isMissing =
    detail === null || (query.isError && isApiError(query.error) && query.error.status === 404);

  // A ticket opens only in its own project: another project's board has other lists and people.
  if (detail && detail.projectId !== board.projectId)
    return (
      <>
        <PanelBar title="Ticket" />
        <div className="ticket-panel__state" role="alert">
          <p className="ticket-panel__state-title">This ticket belongs to another project.</p>
          <Link className="btn" to={`/project/${detail.projectId}?t=${detail.id}`}>
            Open it in its project
          </Link>
        </div>
      </>
    );
  if (isMissing || (!detail && !card && query.isError))
    return (
      <>
        <PanelBar title="Ticket" />
        <div className="ticket-panel__state" role="alert">
          <p className="ticket-panel__state-title">
            {isMissing ? "This ticket no longer exists." : "The ticket could not be loaded."}
          </p>
          <p className="ticket-panel__state-text">
            {isMissing
              ? "It was deleted, or merged into another ticket."
              : "Check your connection and try again."}
          </p>
          {isMissing ? null : (
            <button type="button" className="btn" onClick={() => query.refetch()}>
              Try again
            </button>
          )}
        </div>
      </>
    );
  const ticket: Ticket | undefined = detail ?? card;
  if (!ticket)
    return (
      <>
        <PanelBar title="Ticket" />
        <div className="ticket-panel__state" role="status">
          <LoaderCircle className="spin" size={24} aria-hidden />
          <p className="ticket-panel__state-text">Loading the ticket...</p>
        </div>
      </>
    );
  return <TicketView ticket={ticket} detail={detail ?? null} board={board} />;
}

function PanelBar({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <header className="ticket-panel__bar">
      <Dialog.Title className="ticket-panel__bar-title">{title}</Dialog.Title>
      {children}
      <span className="ticket-card__spacer" />
      <Dialog.Close className="icon-btn" aria-label="Close ticket">
        <X size={18} aria-hidden />
      </Dialog.Close>
    </header>
  );
}

function TicketView({
  ticket,
  detail,
  board,
}: {
  ticket: Ticket;
  detail: import("@redline/shared").TicketDetail | null;
  board: Board;
}) {
  const update = useUpdateTicket();
  const remove = useDeleteTicket();
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const people = useMemo(
    () =>
      board.assignees.flatMap((person) =>
        person.uid ? [{ uid: person.uid, displayName: person.displayName }] : [],
      ),
    [board.assignees],
  );
  const lists = useMemo(() => board.lists.slice().sort(bySortKey), [board.lists]);
  const list = lists.find((entry) => entry.id === ticket.listId);
  const today = localDay(new Date());
  const resolver = ticket.resolvedBy
    ? (board.assignees.find((person) => person.uid === ticket.resolvedBy)?.displayName ??
      (ticket.reporter.uid === ticket.resolvedBy ? ticket.reporter.displayName : "a former member"))
    : null;
  const save = (patch: Parameters<typeof update.mutate>[0]["update"]) =>
    update.mutate({ ticket, update: patch });
  const ids = { assignee: useId(), due: useId(), description: useId(), title: useId() };

  return (
    <>
      <PanelBar title={`Ticket #${ticket.number}`}>
        {ticket.intake === "triage" ? (
          <span className="tag tag--info">{TICKET_MESSAGES.triageTitle}</span>
        ) : null}
        {ticket.isResolved ? (
          <span className="tag tag--success">
            <CircleCheck size={12} aria-hidden /> Resolved
          </span>
        ) : null}
      </PanelBar>
      <div className="ticket-panel__body">
        <div className="ticket-panel__main">
          {ticket.abilities.update ? (
            <>
              <label className="visually-hidden" htmlFor={ids.title}>
                Title
              </label>
              <DraftField
                id={ids.title}
                className="ticket-panel__title-input"
                value={ticket.title}
                max={MAX_TICKET_TITLE}
                name="title"
                rows={1}
                required
                onSave={(title) => save({ title })}
              />
            </>
          ) : (
            <h2 className="ticket-panel__title">{ticket.title}</h2>
          )}
          <TriageActions ticket={ticket} lists={lists} tickets={board.tickets} />
          {/* Editors (the same rule as the project's integrations) create cards; everyone sees the links. */}
          <CardActions
            projectId={board.projectId}
            subject="ticket"
            subjectId={ticket.id}
            canManage={board.abilities.manageWidget}
          />

          <dl className="ticket-panel__props">
            <dt>Status</dt>
            <dd className="ticket-panel__status">
              {ticket.isResolved ? (
                <span>
                  Resolved{resolver ? ` by ${resolver}` : ""}
                  {ticket.resolvedAt ? `, ${timeAgo(ticket.resolvedAt)}` : ""}
                </span>
              ) : (
                <span>
                  Open{list ? ` in ${list.title}` : ticket.intake === "triage" ? ", waiting in triage" : ""}
                </span>
              )}
              {ticket.abilities.resolve ? (
                <button
                  type="button"
                  className={ticket.isResolved ? "btn btn--ghost" : "btn"}
                  disabled={update.isPending}
                  onClick={() => save({ isResolved: !ticket.isResolved })}
                >
                  {ticket.isResolved ? (
                    <>
                      <RotateCcw size={14} aria-hidden /> Reopen
                    </>
                  ) : (
                    <>
                      <Check size={14} aria-hidden /> Resolve
                    </>
                  )}
                </button>
              ) : null}
            </dd>
            <dt>
              <label htmlFor={ids.assignee}>Assignee</label>
            </dt>
            <dd>
              {ticket.abilities.assign ? (
                <select
                  id={ids.assignee}
                  className="input ticket-panel__control"
                  value={ticket.assignedTo ?? ""}
                  onChange={(event) => save({ assignedTo: event.target.value || null })}
                >
                  <option value="">{TICKET_MESSAGES.noAssignee}</option>
                  {board.assignees.map((person) =>
                    person.uid ? (
                      <option key={person.uid} value={person.uid}>
                        {person.displayName}
                      </option>
                    ) : null,
                  )}
                </select>
              ) : (
                <span id={ids.assignee}>{ticket.assignee?.displayName ?? TICKET_MESSAGES.noAssignee}</span>
              )}
            </dd>
            <dt>
              <label htmlFor={ids.due}>Due date</label>
            </dt>
            <dd className="ticket-panel__due">
              {ticket.abilities.update ? (
                <input
                  id={ids.due}
                  type="date"
                  className="input ticket-panel__control"
                  value={ticket.dueDate ?? ""}
                  onChange={(event) => save({ dueDate: event.target.value || null })}
                />
              ) : (
                <span id={ids.due}>{ticket.dueDate ?? "None"}</span>
              )}
              {isOverdue(ticket, today) ? <span className="tag tag--danger">Overdue</span> : null}
            </dd>
            <dt>Reporter</dt>
            <dd className="ticket-panel__person">
              <Avatar name={ticket.reporter.displayName} photoURL={ticket.reporter.photoURL} size={20} />
              {ticket.reporter.displayName}
              {ticket.reporter.isGuest ? <span className="tag">Guest</span> : null}
              <span className="ticket-panel__muted">· {timeAgo(ticket.createdAt)}</span>
            </dd>
          </dl>

          <TicketReportView ticket={ticket} />

          <div className="ticket-panel__section">
            <label className="ticket-panel__heading" htmlFor={ids.description}>
              Description
            </label>
            {ticket.abilities.update ? (
              <DraftField
                id={ids.description}
                className="ticket-panel__description"
                value={ticket.description}
                max={MAX_TICKET_DESCRIPTION}
                name="description"
                rows={3}
                placeholder="Add a description: what happens, what should happen."
                onSave={(description) => save({ description })}
              />
            ) : (
              <p id={ids.description} className="ticket-panel__text">
                {ticket.description || "No description."}
              </p>
            )}
          </div>

          {detail ? (
            <TicketThread ticket={detail} people={people} />
          ) : (
            <p className="ticket-panel__muted" role="status">
              Loading the thread...
            </p>
          )}
        </div>
        {ticket.abilities.delete ? (
          <footer className="ticket-panel__footer">
            <button
              type="button"
              className="btn btn--ghost ticket-panel__delete"
              onClick={() => setDeleteOpen(true)}
            >
              <Trash2 size={14} aria-hidden /> Delete ticket
            </button>
          </footer>
        ) : null}
      </div>
      <ConfirmModal
        open={isDeleteOpen}
        onOpenChange={setDeleteOpen}
        title={`Delete ticket #${ticket.number}?`}
        description="The ticket, its thread and its screenshot are deleted for everyone. This cannot be undone."
        confirmLabel="Delete ticket"
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        onConfirm={() => remove.mutate(ticket, { onSuccess: () => setDeleteOpen(false) })}
      />
    </>
  );
}

/** A text field that saves when left (or Enter for a one-line field) if its text changed; Escape undoes.
 *  Over its limit it says so and keeps the draft unsaved (text-limit.tsx). */
function DraftField({
  id,
  value,
  onSave,
  rows,
  required = false,
  max,
  name,
  ...rest
}: {
  id: string;
  value: string;
  onSave(value: string): void;
  rows: number;
  /** Left empty, it is not saved and says that a title is needed (Escape puts the saved one back). */
  required?: boolean;
  className: string;
  max: number;
  /** Words the limit's message: "The description can be at most 10,000 characters." */
  name: string;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(value);
  const [isMissing, setMissing] = useState(false);
  const limit = useTextLimit(draft, max, name);
  useEffect(() => setDraft(value), [value]);
  const errorId = `${id}-error`;
  const commit = () => {
    const next = rows === 1 ? draft.trim() : draft;
    if (required && !next) return setMissing(true);
    if (next !== value && !limit.isOver) onSave(next);
  };
  return (
    <>
      <textarea
        id={id}
        {...rest}
        className={`input ${rest.className}`}
        rows={rows}
        value={draft}
        aria-invalid={isMissing || limit.isOver || undefined}
        aria-describedby={limit.describedBy(isMissing ? errorId : null)}
        onChange={(event) => {
          setDraft(rows === 1 ? event.target.value.replace(/\n/g, " ") : event.target.value);
          setMissing(false);
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (rows === 1 || event.metaKey || event.ctrlKey)) {
            event.preventDefault();
            event.currentTarget.blur();
          } else if (event.key === "Escape" && draft !== value) {
            event.preventDefault();
            event.stopPropagation();
            setDraft(value);
            setMissing(false);
          }
        }}
      />
      <TextLimitNote limit={limit} />
      {isMissing ? (
        <p id={errorId} className="form-error" role="alert">
          {TICKET_MESSAGES.titleRequired}
        </p>
      ) : null}
    </>
  );
}
