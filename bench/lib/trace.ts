/** Shared by the browser benches: each main-thread task's CPU time between two marks of a Chromium trace. */

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  tdur?: number;
}

/**
 * CPU milliseconds of each task the page's main thread ran between the marks `start` and `end`
 * (`performance.mark` in the page, traced with the `toplevel` and `blink.user_timing` categories). On a
 * shared machine a task can wait for a core far longer than it works: this is its own time.
 */
export function mainThreadCpu(trace: { traceEvents: TraceEvent[] }, start: string, end: string): number[] {
  const events = trace.traceEvents;
  const from = events.find((event) => event.name === start);
  const to = events.find((event) => event.name === end);
  if (!from || !to) throw new Error("the trace lacks the bench's marks");
  return events
    .filter(
      (event) =>
        event.name === "ThreadControllerImpl::RunTask" &&
        event.ph === "X" &&
        event.pid === from.pid &&
        event.tid === from.tid &&
        event.ts >= from.ts &&
        event.ts <= to.ts,
    )
    .map((event) => (event.tdur ?? 0) / 1000);
}
