/**
 * Leaving without a route change — signing out — asks the same question as leaving a page with unsaved
 * edits (SPEC §4). The view holding unsaved work registers a guard; `confirmLeave()` resolves true when
 * the user saved or chose to discard, false when they stay. Route changes use React Router's blocker.
 */
type LeaveGuard = () => Promise<boolean>;

let current: LeaveGuard | null = null;

/** Registers the guard; the returned function removes it (if it is still the one registered). */
export function setLeaveGuard(guard: LeaveGuard): () => void {
  current = guard;
  return () => {
    if (current === guard) current = null;
  };
}

export function confirmLeave(): Promise<boolean> {
  return current ? current() : Promise.resolve(true);
}
