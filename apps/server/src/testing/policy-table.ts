/**
 * Policy tests are written as a table of actors × actions, one mark per cell (✓ allowed, · refused), so
 * a reader sees the whole rule at a glance and a changed rule shows as a changed mark.
 */
export interface PolicyRow {
  actor: string;
  allowed: boolean[];
}

export function parsePolicyTable(table: string, columns: number): PolicyRow[] {
  return table
    .trim()
    .split("\n")
    .map((line) => {
      const marks = line.trim().split(/\s+/).slice(-columns);
      if (marks.length !== columns || marks.some((mark) => mark !== "✓" && mark !== "·"))
        throw new Error(`Policy table row needs ${columns} marks: ${line}`);
      const actor = line
        .trim()
        .slice(0, line.trim().length - marks.join(" ").length)
        .trim();
      return { actor, allowed: marks.map((mark) => mark === "✓") };
    });
}

/** The cases of one row, for `it.each`: the column's label, its index, and whether it is allowed. */
export function rowCases<Column>(row: PolicyRow, columns: readonly Column[]) {
  return columns.map((column, index) => ({ column, expected: row.allowed[index]! }));
}
