/**
 * Intake of a widget report (SPEC §4 ticket states): accept it into a chosen list, merge it into another
 * ticket as a duplicate (a searchable picker), or reject it. Shown only when the ticket's abilities allow.
 */
import type { BrowseList, Ticket } from "@redline/shared";
import { Check, ChevronDown, Copy, X } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useId, useMemo, useState } from "react";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { Modal } from "../../components/modal.tsx";
import { useTriageTicket } from "./board-queries.ts";
import { matchesSearch } from "./board-rules.ts";

export function TriageActions({
  ticket,
  lists,
  tickets,
  compact = false,
}: {
  ticket: Ticket;
  /** Lists in board order, to accept into. */
  lists: BrowseList[];
  /** The board's tickets, to pick the original from. */
  tickets: Ticket[];
  compact?: boolean;
}) {
  const triage = useTriageTicket();
  const [isDuplicateOpen, setDuplicateOpen] = useState(false);
  const [isRejectOpen, setRejectOpen] = useState(false);
  if (!ticket.abilities.triage || ticket.intake !== "triage") return null;
  const name = `#${ticket.number}`;

  return (
    <div className={`triage-actions${compact ? " triage-actions--compact" : ""}`}>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="btn triage-actions__accept"
          disabled={triage.isPending || lists.length === 0}
          aria-label={`Accept report ${name} into a list`}
          title={lists.length === 0 ? "Add a list first" : undefined}
        >
          <Check size={14} aria-hidden /> Accept <ChevronDown size={14} aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu board-menu" align="start" sideOffset={4}>
            <DropdownMenu.Label className="menu__heading">Accept into</DropdownMenu.Label>
            {lists.map((list) => (
              <DropdownMenu.Item
                key={list.id}
                className="menu__item"
                onSelect={() => triage.mutate({ ticket, input: { action: "accept", listId: list.id } })}
              >
                {list.title}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <button
        type="button"
        className="btn btn--ghost"
        disabled={triage.isPending}
        aria-label={`Mark report ${name} as a duplicate`}
        onClick={() => setDuplicateOpen(true)}
      >
        <Copy size={14} aria-hidden /> Duplicate
      </button>
      <button
        type="button"
        className="btn btn--ghost"
        disabled={triage.isPending}
        aria-label={`Reject report ${name}`}
        onClick={() => setRejectOpen(true)}
      >
        <X size={14} aria-hidden /> Reject
      </button>
      <DuplicatePicker
        open={isDuplicateOpen}
        onOpenChange={setDuplicateOpen}
        ticket={ticket}
        tickets={tickets}
        isPending={triage.isPending}
        onPick={(original) =>
          triage.mutate(
            { ticket, input: { action: "duplicate", of: original.id } },
            { onSuccess: () => setDuplicateOpen(false) },
          )
        }
      />
      <ConfirmModal
        open={isRejectOpen}
        onOpenChange={setRejectOpen}
        title={`Reject report ${name}?`}
        description="The report leaves triage and the board."
        confirmLabel="Reject report"
        pendingLabel="Rejecting..."
        isPending={triage.isPending}
        onConfirm={() =>
          triage.mutate({ ticket, input: { action: "reject" } }, { onSuccess: () => setRejectOpen(false) })
        }
      />
    </div>
  );
}

/** The original a duplicate report is merged into: any other ticket of the board, found by number or words. */
function DuplicatePicker({
  open,
  onOpenChange,
  ticket,
  tickets,
  isPending,
  onPick,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  ticket: Ticket;
  tickets: Ticket[];
  isPending: boolean;
  onPick(original: Ticket): void;
}) {
  const [q, setQ] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const id = useId();
  const candidates = useMemo(
    () =>
      tickets
        .filter((entry) => entry.id !== ticket.id && matchesSearch(entry, q))
        .sort((a, b) => b.number - a.number)
        .slice(0, 50),
    [tickets, ticket.id, q],
  );
  const original = tickets.find((entry) => entry.id === chosen) ?? null;
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setQ("");
          setChosen(null);
        }
        onOpenChange(next);
      }}
      title={`Mark #${ticket.number} as a duplicate`}
      description="The report leaves triage, and its note joins the thread of the ticket you choose."
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={!original || isPending}
            onClick={() => original && onPick(original)}
          >
            {isPending ? "Merging..." : original ? `Merge into #${original.number}` : "Merge"}
          </button>
        </>
      }
    >
      <div className="duplicate-picker">
        <label className="field__label" htmlFor={id}>
          Find the original ticket
        </label>
        <input
          id={id}
          className="input"
          type="search"
          placeholder="Number or words of its title"
          value={q}
          onChange={(event) => setQ(event.target.value)}
        />
        <div className="duplicate-picker__list" role="radiogroup" aria-label="Original ticket">
          {candidates.length === 0 ? (
            <p className="duplicate-picker__empty">No other ticket matches.</p>
          ) : (
            candidates.map((entry) => (
              <label key={entry.id} className="duplicate-picker__option">
                <input
                  type="radio"
                  name={`${id}-original`}
                  checked={chosen === entry.id}
                  onChange={() => setChosen(entry.id)}
                />
                <span className="duplicate-picker__number">#{entry.number}</span>
                <span className="duplicate-picker__title">{entry.title}</span>
                {entry.listId === null ? <span className="tag">Triage</span> : null}
              </label>
            ))
          )}
        </div>
      </div>
    </Modal>
  );
}
