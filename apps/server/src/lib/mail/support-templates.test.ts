import { describe, expect, it } from "vitest";
import { feedbackMail, supportConversationMail, supportMail } from "./support-templates.ts";

const sender = { name: "Ada <Admin>", email: "ada@example.com" };

describe("mail to the support address", () => {
  it("Contact Us and plan requests: the sender, the details and the lines, Reply-To the sender", async () => {
    const support = await supportMail({
      to: "support@example.com",
      kind: "pro-request",
      sender: { name: "Ada", email: "ada@example.com" },
      subject: "Plan",
      message: "Line one\nLine two",
      details: { teamSize: 12 },
    });
    expect(support.subject).toBe("[Redline] Plan request: Plan");
    expect(support.text).toContain("Plan request from Ada <ada@example.com>");
    expect(support.text).toContain("teamSize: 12");
    expect(support.text).toMatch(/Line one\s*\n\s*Line two/);
    expect(support.html).toContain("Line one<br/>Line two");
    expect(support.headers).toEqual({ "Reply-To": "Ada <ada@example.com>" });
    expect(support.attachments).toBeUndefined();
  });

  it("feedback: who, where, how many screenshots and the text in both parts, the screenshots attached", async () => {
    const screenshots = [
      { filename: "screenshot-1.png", contentType: "image/png", content: "iVBORw0KGgo=" },
      { filename: "screenshot-2.jpg", contentType: "image/jpeg", content: "/9j/4AAQ" },
    ];
    const mail = await feedbackMail({
      to: "feedback@example.com",
      sender,
      subject: "The board is slow",
      message: "The board is slow\n<b>with 500 tickets</b>",
      page: "/project/p1",
      screenshots,
    });
    expect(mail.subject).toBe("[Redline] Feedback: The board is slow");
    for (const words of [
      "Feedback from Ada <Admin> <ada@example.com>",
      "Page: /project/p1",
      "Screenshots: 2 attached",
      "<b>with 500 tickets</b>",
      "— Redline",
    ])
      expect(mail.text).toContain(words);
    expect(mail.html).toContain("Feedback from Ada &lt;Admin&gt; &lt;ada@example.com&gt;");
    expect(mail.html).toContain("Page: /project/p1");
    expect(mail.html).toContain("&lt;b&gt;with 500 tickets&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>with");
    expect(mail.headers).toEqual({ "Reply-To": "Ada Admin <ada@example.com>" });
    expect(mail.attachments).toEqual(screenshots);

    const bare = await feedbackMail({
      ...{ to: "f@example.com", sender, subject: "Hi", message: "Hi" },
      page: null,
      screenshots: [],
    });
    expect(bare.text).toContain("Screenshots: none");
    expect(bare.text).not.toContain("Page:");
    expect(bare.attachments).toEqual([]);
  });

  it("a 'Need help?' message: the sender, the text and the attachments' names, Reply-To the sender", async () => {
    const mail = await supportConversationMail({
      to: "help@example.com",
      sender,
      message: "How do I invite my whole team?",
      attachments: ["invoice.pdf", "team.png"],
    });
    expect(mail.subject).toBe("[Redline] Need help? from Ada Admin");
    expect(mail.text).toContain("Need help? message from Ada <Admin> <ada@example.com>");
    expect(mail.text).toContain("How do I invite my whole team?");
    expect(mail.text).toContain("Attachments: invoice.pdf, team.png");
    expect(mail.html).toContain("Need help? message from Ada &lt;Admin&gt;");
    expect(mail.html).toContain("Attachments: invoice.pdf, team.png");
    expect(mail.headers).toEqual({ "Reply-To": "Ada Admin <ada@example.com>" });
    const empty = await supportConversationMail({
      to: "h@example.com",
      sender,
      message: "",
      attachments: [],
    });
    expect(empty.text).toContain("(no message)");
    expect(empty.text).not.toContain("Attachments:");
  });
});
