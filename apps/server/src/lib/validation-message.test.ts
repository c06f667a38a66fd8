import { contactSchema, sendMessageSchema } from "@redline/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldName, installValidationMessages } from "./validation-message.ts";

const messagesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a refusal");
  return result.error.issues.map((issue) => issue.message);
};

describe("validation messages", () => {
  beforeAll(() => installValidationMessages());

  it("says how long a text may be, with the field's name", () => {
    const schema = z.object({ message: z.string().max(4000) });
    expect(messagesOf(schema, { message: "x".repeat(4001) })).toEqual([
      "The message can be at most 4,000 characters.",
    ]);
  });

  it("says a missing or empty field is required", () => {
    const schema = z.object({ subject: z.string().min(1), teamName: z.string() });
    expect(messagesOf(schema, { subject: "" })).toEqual([
      "The subject is required.",
      "The team name is required.",
    ]);
  });

  it("words sizes, types, choices, formats and unknown fields", () => {
    const schema = z
      .object({
        participantIds: z.array(z.string()).max(2),
        limit: z.number().int().min(1),
        access: z.enum(["view", "edit"]),
        email: z.email(),
        isSeen: z.boolean(),
      })
      .strict();
    expect(
      messagesOf(schema, {
        participantIds: ["a", "b", "c"],
        limit: 0,
        access: "own",
        email: "nobody",
        isSeen: "yes",
        colour: "red",
      }),
    ).toEqual([
      "The participant ids can have at most 2 items.",
      "The limit must be at least 1.",
      "The access must be one of: view, edit.",
      "The email must be an e-mail address.",
      "The seen flag must be true or false.",
      "The request has a field it does not take: colour.",
    ]);
  });

  it("keeps the messages our schemas write themselves", () => {
    expect(messagesOf(contactSchema, { subject: "", message: "Hello" })).toEqual(["Write a subject."]);
  });

  it("never lets zod's developer wording through for the shared contracts", () => {
    const [message] = messagesOf(sendMessageSchema, { message: "x".repeat(4001) });
    expect(message).toBe("The message can be at most 4,000 characters.");
    expect(message).not.toMatch(/Too big|expected string/);
  });

  it("names the last named key of a path", () => {
    expect(fieldName(["screenshots", 2])).toBe("screenshots");
    expect(fieldName([])).toBe("request");
    expect(fieldName(["deal_code"])).toBe("deal code");
    expect(fieldName(["isResolved"])).toBe("resolved flag");
  });
});
