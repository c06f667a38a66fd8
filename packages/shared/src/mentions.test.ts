import { describe, expect, it } from "vitest";
import { DELETED_MENTION, mentionParts, mentionQuery, toEditableText, toStoredText } from "./mentions.ts";

const ann = { uid: "u_ann", displayName: "Ann" };
const annLee = { uid: "u_annlee", displayName: "Ann Lee" };

describe("mentions", () => {
  it("stores each inserted @Name as {@uid}, longest names first", () => {
    expect(toStoredText("@Ann Lee and @Ann, look", [ann, annLee])).toBe("{@u_annlee} and {@u_ann}, look");
  });

  it("leaves an @word nobody inserted as typed", () => {
    expect(toStoredText("mail @Bob", [ann])).toBe("mail @Bob");
    expect(toStoredText("@Annabel", [ann])).toBe("@Annabel");
    expect(toStoredText("(@A.B)", [{ uid: "u_ab", displayName: "A.B" }])).toBe("({@u_ab})");
  });

  it("turns stored text back into editable text and the people it mentions", () => {
    const { text, inserted } = toEditableText("hi {@u_ann} and {@u_gone}", [ann, annLee]);
    expect(text).toBe("hi @Ann and {@u_gone}");
    expect(inserted).toEqual([ann]);
    expect(toStoredText(text, inserted)).toBe("hi {@u_ann} and {@u_gone}");
  });

  it("names a removed person '@Deleted user' and an unknown list '@someone'", () => {
    expect(mentionParts("a {@u_ann} b {@u_gone}", [ann])).toEqual([
      { kind: "text", text: "a " },
      { kind: "mention", uid: "u_ann", name: "@Ann" },
      { kind: "text", text: " b " },
      { kind: "mention", uid: "u_gone", name: DELETED_MENTION },
    ]);
    expect(mentionParts("{@u_ann}", null)).toEqual([{ kind: "mention", uid: "u_ann", name: "@someone" }]);
  });

  it("finds the mention being typed before the caret", () => {
    expect(mentionQuery("hello @an", 9)).toEqual({ start: 6, query: "an" });
    expect(mentionQuery("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionQuery("mail a@b", 8)).toBeNull();
    expect(mentionQuery("@ann done", 9)).toBeNull();
  });
});
