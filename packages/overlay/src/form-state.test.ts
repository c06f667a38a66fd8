import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./testing/harness.ts";

const FORM_PAGE = `<!doctype html><html><body>
<label><input type="checkbox" id="partly" data-redline-indeterminate> Select all (partly)</label>
<label><input type="checkbox" id="plain"> Plain</label>
</body></html>`;

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ form: FORM_PAGE });
});
afterAll(async () => {
  await harness?.close();
});

describe("form state a snapshot's HTML cannot carry", () => {
  it("makes a checkbox captured as indeterminate indeterminate again, and no other", async () => {
    const view = await harness.open("form");
    await view.waitFor("overlay:ready");
    const states = await view.frame.evaluate(() =>
      ["partly", "plain"].map((id) => (document.getElementById(id) as HTMLInputElement).indeterminate),
    );
    expect(states).toEqual([true, false]);
    await view.page.context().close();
  });
});
