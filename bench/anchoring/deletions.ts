/**
 * The deletion sets (issue #36, item 20): one element's whole unit — a table row, a card, a list
 * item, a section — is deleted in the next version while look-alikes of it stay (the other rows,
 * cards, items and sections of the same kind). Every target inside the unit must then come back
 * null or needs-review: pinning its comment to anything is a wrong pin (an "orphan" that was not
 * reported as one).
 *
 * Made by make-corpus.ts from the marked original of each page: `findUnits` (run in the page) lists
 * every candidate unit, `pickUnits` keeps a few per family spread over the page, and each is written
 * to pairs/<page>.deletions.json twice: deleted alone, and deleted in a rebuilt page (a banner on
 * top, every class regenerated). The bench applies them to the original (mutations.ts).
 *
 * Held-out (never tuned on): the app pages, like the outside corpus the issue measured — dashboard,
 * shop, settings, docs. Tuning: the same families on every other page.
 */
import type { Mutation } from "./mutations.ts";

export const DELETION_HELD_OUT = ["dashboard", "docs", "settings", "shop"];

export type Family = "row" | "card" | "item" | "section";
export const FAMILY_ORDER: Family[] = ["row", "card", "item", "section"];

export interface Unit {
  family: Family;
  /** Unique `:nth-child` paths from <body> of the elements removed (one, or a heading and its run). */
  paths: string[];
  /** Truth ids inside the unit. */
  truths: string[];
  /** Look-alike units of the same parent left behind. */
  lookAlikes: number;
  /** Short description for the report. */
  label: string;
}

export interface Deletion {
  id: string;
  family: Family;
  variant: "plain" | "rebuilt";
  label: string;
  mutations: Mutation[];
}

/**
 * In the page: every unit whose deletion leaves a look-alike behind. Self-contained (page.evaluate).
 */
export function findUnits(truth: string): Unit[] {
  const units: Unit[] = [];
  const CARD_TAGS = ["div", "article", "li", "fieldset", "details", "aside", "form", "figure"];
  const pathOf = (element: Element): string => {
    const steps: string[] = [];
    for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
      const parent: Element | null = node.parentElement;
      const index = parent ? Array.from(parent.children).indexOf(node) + 1 : 1;
      steps.unshift(`${node.localName}:nth-child(${index})`);
    }
    return `body > ${steps.join(" > ")}`;
  };
  const truthsIn = (elements: Element[]): string[] => {
    const found: string[] = [];
    for (const element of elements) {
      if (element.hasAttribute(truth)) found.push(element.getAttribute(truth)!);
      for (const inner of Array.from(element.querySelectorAll(`[${truth}]`)))
        found.push(inner.getAttribute(truth)!);
    }
    return found;
  };
  const signature = (element: Element) =>
    `${element.localName}.${Array.from(element.classList).sort().join(".")}`;
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const describeUnit = (element: Element) =>
    (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);

  for (const element of Array.from(document.body.querySelectorAll("*"))) {
    const parent = element.parentElement;
    if (!parent || !visible(element)) continue;
    const tag = element.localName;
    if (["script", "style", "template", "br", "svg", "path", "option", "thead", "tbody"].includes(tag))
      continue;
    const lookAlikes = Array.from(parent.children).filter(
      (other) => other !== element && signature(other) === signature(element) && visible(other),
    ).length;
    if (lookAlikes === 0) continue;
    const truths = truthsIn([element]);
    if (truths.length === 0) continue;
    let family: Family | null = null;
    if (tag === "tr") family = parent.localName === "thead" ? null : "row";
    else if (tag === "section") family = "section";
    // A card: a repeated block of several targets (a product, a plan, a teaser, a question), also
    // when written as a list item.
    else if (
      CARD_TAGS.includes(tag) &&
      truths.length >= (tag === "li" ? 3 : 2) &&
      element.children.length >= 2
    )
      family = "card";
    else if (tag === "li" || tag === "dt" || tag === "dd") family = "item";
    if (!family) continue;
    units.push({
      family,
      paths: [pathOf(element)],
      truths,
      lookAlikes,
      label: `<${tag}> ${describeUnit(element)}`,
    });
  }

  // Sections written as a heading and the run of siblings up to the next heading of its level
  // (documentation pages): the whole run is one section.
  for (const level of ["h2", "h3"]) {
    const parents = new Set(Array.from(document.body.querySelectorAll(level)).map((h) => h.parentElement!));
    for (const parent of parents) {
      const headings = Array.from(parent.children).filter((child) => child.localName === level);
      if (headings.length < 3) continue;
      for (const heading of headings) {
        const run: Element[] = [heading];
        for (
          let next = heading.nextElementSibling;
          next && next.localName !== level;
          next = next.nextElementSibling
        ) {
          if (/^h[1-6]$/.test(next.localName) && next.localName < level) break;
          run.push(next);
        }
        const truths = truthsIn(run);
        if (truths.length < 2) continue;
        units.push({
          family: "section",
          paths: run.map(pathOf).reverse(),
          truths,
          lookAlikes: headings.length - 1,
          label: `<${level}> run: ${describeUnit(heading)}`,
        });
      }
    }
  }
  return units;
}

/** Up to `perFamily` units of each family, spread evenly over the page's order (first, …, last). */
export function pickUnits(units: Unit[], perFamily: number): Unit[] {
  const picked: Unit[] = [];
  for (const family of FAMILY_ORDER) {
    const all = units.filter((unit) => unit.family === family);
    if (all.length <= perFamily) {
      picked.push(...all);
      continue;
    }
    const chosen = new Set<number>();
    for (let i = 0; i < perFamily; i++) chosen.add(Math.round((i * (all.length - 1)) / (perFamily - 1)));
    for (const index of [...chosen].sort((a, b) => a - b)) picked.push(all[index]!);
  }
  return picked;
}

/** A rebuild on top of the deletion: a banner pushes everything down, every class is regenerated. */
const REBUILD: Mutation[] = [
  {
    op: "insert",
    at: "body",
    where: "afterbegin",
    html: '<div class="release-note"><p>We shipped a new look.</p><button type="button">Got it</button></div>',
  },
  { op: "rehash", pattern: "^()[A-Za-z][\\w-]*$", salt: "deletions" },
];

export function deletionsOf(page: string, units: Unit[]): Deletion[] {
  const deletions: Deletion[] = [];
  units.forEach((unit, n) => {
    const remove: Mutation[] = unit.paths.map((sel) => ({ op: "remove", sel }));
    for (const variant of ["plain", "rebuilt"] as const) {
      deletions.push({
        id: `${page}-${unit.family}-${n}-${variant}`,
        family: unit.family,
        variant,
        label: unit.label,
        mutations: variant === "plain" ? remove : [...remove, ...REBUILD],
      });
    }
  });
  return deletions;
}
