/**
 * "Add a ticket" at the bottom of a list: a title (Enter adds it and keeps the form open for the next
 * one, Escape closes; without one it says a title is needed). A ticket past the plan's limit is refused
 * with 402 and the upgrade prompt.
 */
import { type BrowseList, MAX_TICKET_TITLE, TICKET_MESSAGES } from "@redline/shared";
import { Plus } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { TextLimitNote, useTextLimit } from "../../components/text-limit.tsx";
import { clearSent } from "../../lib/clear-sent.ts";
import { useCreateTicket } from "./board-queries.ts";

export function AddTicketForm({ list }: { list: BrowseList }) {
  const [isOpen, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [isMissing, setMissing] = useState(false);
  const create = useCreateTicket(list.projectId);
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const limit = useTextLimit(title, MAX_TICKET_TITLE, "title");

  const close = () => {
    setOpen(false);
    setTitle("");
    setMissing(false);
    requestAnimationFrame(() => opener.current?.focus());
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const value = title.trim();
    if (!value) return setMissing(true);
    if (create.isPending || limit.isOver) return;
    // Enter keeps the form open for the next title: one typed while this one was added stays.
    create.mutate({ listId: list.id, title: value }, { onSuccess: () => setTitle(clearSent(title)) });
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) submit(event);
    else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  if (!isOpen)
    return (
      <button ref={opener} type="button" className="board-column__add" onClick={() => setOpen(true)}>
        <Plus size={16} aria-hidden /> Add a ticket
      </button>
    );

  return (
    <form className="add-ticket" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={id}>
        Title of the new ticket in {list.title}
      </label>
      <textarea
        id={id}
        className="input add-ticket__input"
        rows={2}
        placeholder="What needs doing?"
        value={title}
        // biome-ignore lint/a11y/noAutofocus: the form opens because the user asked to write a ticket
        autoFocus
        aria-invalid={isMissing || limit.isOver || undefined}
        aria-describedby={limit.describedBy(isMissing ? `${id}-error` : null)}
        onChange={(event) => {
          setTitle(event.target.value);
          setMissing(false);
        }}
        onKeyDown={handleKeyDown}
        // A card's pointer listeners sit above: typing and selecting here must not start a drag.
        onPointerDown={(event) => event.stopPropagation()}
      />
      <TextLimitNote limit={limit} />
      {isMissing ? (
        <p id={`${id}-error`} className="form-error" role="alert">
          {TICKET_MESSAGES.titleRequired}
        </p>
      ) : null}
      <div className="add-ticket__actions">
        <button
          type="submit"
          className="btn btn--primary add-ticket__submit"
          disabled={create.isPending || limit.isOver}
        >
          {create.isPending ? "Adding..." : "Add ticket"}
        </button>
        <button type="button" className="btn btn--ghost add-ticket__cancel" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
