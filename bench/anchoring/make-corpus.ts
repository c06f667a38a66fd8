/**
 * Regenerates the anchoring corpus: `node --import tsx bench/anchoring/make-corpus.ts`.
 *
 * For each hand-written page in bench/fixtures/anchoring/pages/, opens it in Chromium at 1280 px,
 * marks every visible interactive or text element with a `data-truth` id, writes that as
 * pairs/<page>.original.html, applies the page's recipe (recipes.ts) and writes
 * pairs/<page>.mutated.html. The truth ids travel with the elements through the edits, so they are
 * the ground truth; copies made by the recipe carry none. The held-out edit sets are applied to the
 * same marked original: holdout.ts as pairs/<page>.holdout.html, hard.ts (moves, many changes at once,
 * icons) as pairs/<page>.hard.html, holdout2.ts (a second held-out set of those kinds) as
 * pairs/<page>.holdout2.html; and the tuning side's moves and storm (recipes.ts) as
 * pairs/<page>.tuning2.html. Finally the deletion sets (deletions.ts): a few rows, cards, list items
 * and sections of the page, each deleted alone and in a rebuilt page, as pairs/<page>.deletions.json.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { closePage, launchChromium, openPage, TRUTH_ATTRIBUTE } from "@redline/anchoring/testing";
import { deletionsOf, findUnits, pickUnits } from "./deletions.ts";
import { HARD, STORM } from "./hard.ts";
import { HOLDOUT } from "./holdout.ts";
import { HOLDOUT2, STORM2 } from "./holdout2.ts";
import { applyMutations, type Mutation } from "./mutations.ts";
import { RECIPES, TUNING_MOVES, TUNING_STORM } from "./recipes.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CORPUS = path.join(ROOT, "bench/fixtures/anchoring");

/** In the page: mark visible interactive elements and elements with their own text. */
function markTargets(attribute: string): number {
  const selector =
    "a,button,input,select,textarea,summary,img,label,h1,h2,h3,h4,h5,h6,p,li,td,th,blockquote,figcaption,dt,dd,span,strong,em,small,time,code,legend,div";
  let count = 0;
  for (const element of Array.from(document.body.querySelectorAll(selector))) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === "hidden") continue;
    const interactive = /^(a|button|input|select|textarea|summary|img)$/.test(element.localName);
    const hasText = Array.from(element.childNodes).some(
      (node) => node.nodeType === 3 && (node.nodeValue ?? "").trim() !== "",
    );
    if (!interactive && !hasText) continue;
    count++;
    element.setAttribute(attribute, `t${count}`);
  }
  return count;
}

/** Units deleted per family and page (each in two variants). */
const UNITS_PER_FAMILY = 6;

/** `--deletions-only`: write only pairs/<page>.deletions.json (the other pairs stay as they are). */
const DELETIONS_ONLY = process.argv.includes("--deletions-only");

const serialise = () => `<!doctype html>\n${document.documentElement.outerHTML}\n`;

const browser = await launchChromium();
try {
  const names = (await readdir(path.join(CORPUS, "pages"))).filter((name) => name.endsWith(".html")).sort();
  for (const file of names) {
    const name = file.replace(/\.html$/, "");
    const recipe = RECIPES[name];
    if (!recipe) throw new Error(`no recipe for ${name}`);
    const page = await openPage(browser, await readFile(path.join(CORPUS, "pages", file), "utf8"), 1280);
    const targets = await page.evaluate(markTargets, TRUTH_ATTRIBUTE);
    const original = await page.evaluate(serialise);
    const units = pickUnits(await page.evaluate(findUnits, TRUTH_ATTRIBUTE), UNITS_PER_FAMILY);
    await closePage(page);
    if (!DELETIONS_ONLY) await writeFile(path.join(CORPUS, "pairs", `${name}.original.html`), original);
    const mutate = async (mutations: Mutation[], suffix: string) => {
      const copy = await openPage(browser, original, 1280);
      const problems = await copy.evaluate(applyMutations, { mutations, truth: TRUTH_ATTRIBUTE });
      const html = await copy.evaluate(serialise);
      const kept = await copy.evaluate(
        (attribute) => document.querySelectorAll(`[${attribute}]`).length,
        TRUTH_ATTRIBUTE,
      );
      await closePage(copy);
      if (problems.length > 0) throw new Error(`${name} ${suffix}: ${problems.join("; ")}`);
      await writeFile(path.join(CORPUS, "pairs", `${name}.${suffix}.html`), html);
      return targets - kept;
    };
    const deletions = deletionsOf(name, units);
    for (const deletion of deletions) {
      // Each must apply cleanly to the original.
      const copy = await openPage(browser, original, 1280);
      const problems = await copy.evaluate(applyMutations, {
        mutations: deletion.mutations,
        truth: TRUTH_ATTRIBUTE,
      });
      await closePage(copy);
      if (problems.length > 0) throw new Error(`${deletion.id}: ${problems.join("; ")}`);
    }
    await writeFile(
      path.join(CORPUS, "pairs", `${name}.deletions.json`),
      `${JSON.stringify(deletions, null, 1)}\n`,
    );
    const families = units.map((unit) => unit.family);
    console.log(
      `${name}: deletions ${["row", "card", "item", "section"].map((f) => `${f} ${families.filter((x) => x === f).length}`).join(", ")}`,
    );
    if (DELETIONS_ONLY) continue;
    const removed = await mutate(recipe, "mutated");
    const heldOutRemoved = await mutate(HOLDOUT[name] ?? [], "holdout");
    const hardRemoved = await mutate([...(HARD[name] ?? []), ...STORM], "hard");
    const tuning2Removed = await mutate([...(TUNING_MOVES[name] ?? []), ...TUNING_STORM], "tuning2");
    const holdout2Removed = await mutate([...(HOLDOUT2[name] ?? []), ...STORM2], "holdout2");
    console.log(
      `${name}: ${targets} targets, ${removed} removed (tuning2: ${tuning2Removed}, holdout: ${heldOutRemoved}, hard: ${hardRemoved}, holdout2: ${holdout2Removed}), ${recipe.length} edits`,
    );
  }
} finally {
  await browser.close();
}
