import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/index.ts";
import { createTestDatabase, drivers, type TestDatabase } from "../testing/test-db.ts";
import { startQueue } from "./queue.ts";

/** A promise with its resolve function outside. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function jobState(database: DatabaseHandle, id: string): Promise<string> {
  const { rows } = await database.executeSql("SELECT state FROM pgboss.job WHERE id = $1", [id]);
  return (rows[0] as { state: string }).state;
}

describe.each(drivers())("the job queue's stop (%s)", (driver) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  async function workingJob(onRun: () => Promise<void>) {
    testDb = await createTestDatabase(driver);
    database = await openDatabase(testDb);
    const jobs = await startQueue(database);
    await jobs.queue.createQueue("slow");
    const started = deferred();
    await jobs.queue.work("slow", { pollingIntervalSeconds: 0.5 }, async () => {
      started.resolve();
      await onRun();
    });
    const id = (await jobs.queue.send("slow", {}, { retryLimit: 2, expireInSeconds: 60 }))!;
    await started.promise;
    return { jobs, id };
  }

  afterEach(async () => {
    process.off("unhandledRejection", onRejection);
    await testDb.release();
  });

  it("lets a running job finish and records it before the database closes", async () => {
    const finish = deferred();
    const { jobs, id } = await workingJob(() => finish.promise);
    setTimeout(finish.resolve, 200);
    await jobs.stop(5000);
    expect(await jobState(database, id)).toBe("completed");
    await database.close();
  });

  it("fails a job that outlives the grace period so it runs again, and drops its late report", async () => {
    process.on("unhandledRejection", onRejection);
    const finish = deferred();
    const { jobs, id } = await workingJob(() => finish.promise);
    await jobs.stop(1000);
    expect(await jobState(database, id)).toBe("retry");
    await database.close();
    finish.resolve(); // the job ends after the database closed: its completion must go nowhere
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rejections).toEqual([]);
  });
});
