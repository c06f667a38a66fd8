import { describe, expect, it } from "vitest";
import {
  isValueLike,
  levenshtein,
  normaliseText,
  otherRecord,
  recordKeys,
  siblingRecord,
  sidedWordSimilarity,
  textSimilarity,
  trigrams,
  wordSimilarity,
} from "./text.ts";

describe("normaliseText", () => {
  it("collapses whitespace, lower-cases, folds compatibility forms and cuts", () => {
    expect(normaliseText("  Sign\n\t up  ")).toBe("sign up");
    expect(normaliseText("ﬁle Ｆｕｌｌ")).toBe("file full");
    expect(normaliseText("a".repeat(500))).toHaveLength(160);
    expect(normaliseText(null)).toBe("");
  });
});

describe("similarity", () => {
  it("levenshtein, with an early exit", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("abcdef", "uvwxyz", 2)).toBe(3);
  });

  it("scores equal, edited and unrelated texts in that order", () => {
    expect(textSimilarity("pricing", "pricing")).toBe(1);
    const typo = textSimilarity("how we cut our build times", "how we cut our buld times");
    const reworded = textSimilarity("start free trial", "start your free trial");
    const unrelated = textSimilarity("start free trial", "read the documentation");
    expect(typo).toBeGreaterThan(0.9);
    expect(reworded).toBeGreaterThan(0.7);
    expect(unrelated).toBeLessThan(0.35);
    expect(textSimilarity("", "x")).toBe(0);
  });

  it("treats a label that gained words as the same label", () => {
    expect(textSimilarity("work e-mail", "work e-mail address")).toBeGreaterThan(0.8);
  });

  it("uses edit distance for short values and trigrams for long text", () => {
    expect(textSimilarity("$29", "$39")).toBeCloseTo(2 / 3, 5);
    const long = "the first thing we did was measure every step of the pipeline and export it";
    expect(textSimilarity(long, `${long} to our metrics stack`)).toBeGreaterThan(0.8);
    expect(trigrams("ab").size).toBe(2);
  });

  it("word similarity notices which words changed", () => {
    expect(wordSimilarity("inv-2039 paid $860.00", "inv-2032 paid $860.00")).toBeCloseTo(2 / 3, 5);
  });

  it("recognises values", () => {
    for (const value of ["$29", "4.6 ★ (212)", "07:30", "oct 10, 2026", "—", "1 gb"]) {
      expect(isValueLike(value), value).toBe(true);
    }
    for (const name of ["pricing", "add to cart", "+12.4% vs last month", "string"]) {
      expect(isValueLike(name), name).toBe(false);
    }
  });

  it("compares neighbour words on their side of the element", () => {
    expect(sidedWordSimilarity("projects 3 | unlimited", "projects 3 | unlimited")).toBe(1);
    expect(sidedWordSimilarity("projects 3 | unlimited", "projects 3 unlimited |")).toBeCloseTo(2 / 3, 5);
    expect(wordSimilarity("projects 3 | unlimited", "projects 3 unlimited |")).toBe(1);
  });

  it("finds record keys and notices another record in their place", () => {
    expect(recordKeys("inv-2040 | overdue $1,150.00 oct 12, 2026 v2.1 10am send")).toEqual(["inv-2040"]);
    expect(otherRecord(["inv-2040"], "inv-2034 | paid $1,150.00 sep 12, 2026")).toBe(true);
    expect(otherRecord(["inv-2040"], "inv-2040 | paid")).toBe(false);
    // No key of that shape around the candidate: no evidence either way.
    expect(otherRecord(["inv-2040"], "kestrel studio | paid")).toBe(false);
  });
});

describe("siblingRecord", () => {
  it("tells a look-alike card of another record from the same card edited", () => {
    const black = "organic cotton tee black $29 | 4.5 ★ (488) add to cart";
    expect(siblingRecord(black, "organic cotton tee white $29 | 4.4 ★ (530) add to cart")).toBe(true);
    // One field edited (a new price, a recount), or words added: the same record.
    expect(siblingRecord(black, "organic cotton tee black $25 | 4.5 ★ (488) add to cart")).toBe(false);
    expect(siblingRecord(black, "organic cotton tee black $29 | 4.6 ★ (491) add to cart")).toBe(false);
    expect(siblingRecord(black, "new organic cotton tee black $29 | 4.5 ★ (488) add to cart")).toBe(false);
    // The element's own text counts as a field: one word of the surroundings and the value itself.
    const rating = "organic cotton tee black $29 | add to cart";
    expect(siblingRecord(rating, "organic cotton tee white $29 | add to cart")).toBe(false);
    expect(siblingRecord(rating, "organic cotton tee white $29 | add to cart", true)).toBe(true);
    // Another element in the same card (the words moved across the element): not this rule's business.
    expect(siblingRecord(black, "organic cotton tee black | $29 4.5 ★ (488) add to cart")).toBe(false);
  });
});
