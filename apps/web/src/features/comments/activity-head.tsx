/** The head of the comments panel: its title and count, "N new" held comments, and the filter. */
export type Filter = "all" | "unresolved" | "resolved";

export function ActivityHead({
  title,
  count,
  heldCount,
  onRelease,
  filter,
  onFilter,
}: {
  title: string;
  count: number;
  heldCount: number;
  onRelease(): void;
  filter: Filter;
  onFilter(filter: Filter): void;
}) {
  return (
    <div className="activity__head">
      <h2 id="activity-title" className="activity__title">
        {title}
      </h2>
      <span className="activity__count">{count}</span>
      <span className="thread__spacer" />
      {heldCount > 0 ? (
        <button
          type="button"
          className="btn btn--primary activity__new"
          aria-label={`Show ${heldCount} new ${heldCount === 1 ? "comment" : "comments"}`}
          onClick={onRelease}
        >
          {heldCount} new
        </button>
      ) : null}
      <select
        className="input activity__filter"
        aria-label="Show comments"
        value={filter}
        onChange={(event) => onFilter(event.target.value as Filter)}
      >
        <option value="all">All comments</option>
        <option value="unresolved">Unresolved</option>
        <option value="resolved">Resolved</option>
      </select>
    </div>
  );
}
