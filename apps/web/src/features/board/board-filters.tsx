/**
 * The board's filter bar: search, assignee, reporter, resolved, due. Filters narrow what the tab holds
 * (board-rules.ts); nothing is asked of the server.
 */
import type { TicketPerson } from "@redline/shared";
import { Search, X } from "lucide-react";
import type { ReactNode } from "react";
import { type BoardFilters as Filters, hasFilters } from "./board-rules.ts";

function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  children: ReactNode;
}) {
  return (
    <select
      className={`input board-filters__select${value ? " is-active" : ""}`}
      aria-label={label}
      value={value ?? ""}
      onChange={(event) => onChange(event.target.value || undefined)}
    >
      {children}
    </select>
  );
}

export function BoardFilters({
  filters,
  search,
  onFiltersChange,
  onSearchChange,
  assignees,
  reporters,
}: {
  filters: Filters;
  search: string;
  onFiltersChange(filters: Filters): void;
  onSearchChange(search: string): void;
  assignees: TicketPerson[];
  reporters: { key: string; person: TicketPerson }[];
}) {
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) =>
    onFiltersChange({ ...filters, [key]: value });
  const isFiltered = hasFilters(filters) || search.trim() !== "";
  return (
    <search className="board-filters" aria-label="Filter tickets">
      <div className="board-filters__search">
        <Search size={16} aria-hidden className="board-filters__search-icon" />
        <input
          className="input board-filters__search-input"
          type="search"
          aria-label="Search tickets"
          placeholder="Search tickets"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
        />
      </div>
      <FilterSelect label="Assignee" value={filters.assignee} onChange={(value) => set("assignee", value)}>
        <option value="">Any assignee</option>
        <option value="none">Unassigned</option>
        {assignees.map((person) =>
          person.uid ? (
            <option key={person.uid} value={person.uid}>
              {person.displayName}
            </option>
          ) : null,
        )}
      </FilterSelect>
      <FilterSelect label="Reporter" value={filters.reporter} onChange={(value) => set("reporter", value)}>
        <option value="">Any reporter</option>
        {reporters.map(({ key, person }) => (
          <option key={key} value={key}>
            {person.displayName}
            {person.isGuest ? " (guest)" : ""}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect
        label="Status"
        value={filters.resolved}
        onChange={(value) => set("resolved", value as Filters["resolved"])}
      >
        <option value="">Open and resolved</option>
        <option value="false">Open</option>
        <option value="true">Resolved</option>
      </FilterSelect>
      <FilterSelect
        label="Due date"
        value={filters.due}
        onChange={(value) => set("due", value as Filters["due"])}
      >
        <option value="">Any due date</option>
        <option value="overdue">Overdue</option>
        <option value="week">Due within a week</option>
        <option value="none">No due date</option>
      </FilterSelect>
      {isFiltered ? (
        <button
          type="button"
          className="btn btn--ghost board-filters__clear"
          onClick={() => {
            onFiltersChange({});
            onSearchChange("");
          }}
        >
          <X size={14} aria-hidden /> Clear filters
        </button>
      ) : null}
    </search>
  );
}
