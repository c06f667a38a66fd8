/**
 * Realtime events against reads already under way. A read sent before a change can be answered after
 * the socket told of it; TanStack Query would then keep the older answer:
 * - `invalidateQueries` joins a view's first read still under way (no data yet) instead of reading again;
 * - data written into the cache from an event is replaced when an earlier read lands.
 * So what a realtime event or resync concerns is read by a request that begins after it.
 */
import type { Query, QueryClient, QueryFilters } from "@tanstack/react-query";

/**
 * Refetches what `filters` match with requests that begin now: an invalidation, except that a first read
 * under way is cancelled first instead of joined (one with data is cancelled by the invalidation itself).
 */
export async function refetchFresh(queryClient: QueryClient, filters: QueryFilters): Promise<void> {
  const firstReads = readsUnderWay(queryClient, filters).filter((query) => query.state.data === undefined);
  if (firstReads.length > 0)
    await queryClient.cancelQueries({ predicate: (query) => firstReads.includes(query) });
  await queryClient.invalidateQueries(filters);
}

/**
 * After an event was written into the cache: reads of `filters` that were under way are sent again (their
 * answers may predate the event); a query with no read under way keeps what was written, with no request.
 */
export async function restartReads(queryClient: QueryClient, filters: QueryFilters): Promise<void> {
  const underWay = readsUnderWay(queryClient, filters);
  if (underWay.length === 0) return;
  const predicate = (query: Query) => underWay.includes(query);
  await queryClient.cancelQueries({ predicate });
  await queryClient.refetchQueries({ predicate });
}

/** The queries `filters` match whose read is under way. */
function readsUnderWay(queryClient: QueryClient, filters: QueryFilters): Query[] {
  return queryClient
    .getQueryCache()
    .findAll(filters)
    .filter((query) => query.state.fetchStatus === "fetching");
}
