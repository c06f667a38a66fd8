import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { refetchFresh, restartReads } from "./fresh-reads.ts";

/**
 * A server whose answers the test releases one by one: each read is answered with what the server held
 * when the read began, as a database would.
 */
function server(initial: string[]) {
  let held = initial;
  const reads: { began: string[]; answer: () => void }[] = [];
  return {
    write(next: string[]) {
      held = next;
    },
    queryFn: () =>
      new Promise<string[]>((resolve) => {
        const began = held;
        reads.push({ began, answer: () => resolve(began) });
      }),
    reads,
    /** Answers every read under way, oldest first. */
    async answerAll() {
      for (const read of reads.splice(0)) read.answer();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

const key = ["api", "projects"] as const;
let client: QueryClient;
let unsubscribe = () => {};

function watched(fake: ReturnType<typeof server>) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const observer = new QueryObserver(client, { queryKey: key, queryFn: fake.queryFn });
  unsubscribe = observer.subscribe(() => {});
  return observer;
}

afterEach(() => unsubscribe());

describe("reads against realtime events", () => {
  it("an event during a view's first read gets a read that began after it (an invalidation joins the first)", async () => {
    const fake = server([]);
    watched(fake);
    expect(fake.reads).toHaveLength(1); // the first read, begun before the change
    fake.write(["Shared while open"]);

    void client.invalidateQueries({ queryKey: key });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.reads).toHaveLength(1); // TanStack joined the read under way: the change would be lost

    void refetchFresh(client, { queryKey: key });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.reads.at(-1)!.began).toEqual(["Shared while open"]);
    await fake.answerAll();
    expect(client.getQueryData(key)).toEqual(["Shared while open"]);
  });

  it("an event written into the cache is not undone by a read that began before it", async () => {
    const fake = server(["a"]);
    watched(fake);
    await fake.answerAll();
    void client.refetchQueries({ queryKey: key }); // a refetch under way (focus, another view)
    fake.write(["a", "b"]);
    client.setQueryData(key, ["a", "b"]); // the event's data
    void restartReads(client, { queryKey: key });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await fake.answerAll();
    expect(client.getQueryData(key)).toEqual(["a", "b"]);
  });

  it("an event with no read under way is written with no request", async () => {
    const fake = server(["a"]);
    watched(fake);
    await fake.answerAll();
    client.setQueryData(key, ["a", "b"]);
    await restartReads(client, { queryKey: key });
    expect(fake.reads).toHaveLength(0);
    expect(client.getQueryData(key)).toEqual(["a", "b"]);
  });
});
