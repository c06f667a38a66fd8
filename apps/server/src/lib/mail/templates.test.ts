import {
  EMAIL_PREFERENCE_KEYS,
  emailPreferenceOf,
  NOTIFICATION_TYPES,
  notificationMessage,
  UNSENT_EMAIL_PREFERENCES,
} from "@redline/shared";
import { describe, expect, it } from "vitest";
import {
  approverMail,
  notificationMail,
  pagesAddedMail,
  projectInviteMail,
  resetPasswordMail,
  teamAccessMail,
  teamInviteMail,
  ticketResolvedMail,
  ticketsAddedMail,
  verificationMail,
} from "./templates.ts";

const unsubscribe = {
  pageUrl: "https://r.example/unsubscribe?token=t",
  oneClickUrl: "https://r.example/api/mail/unsubscribe?token=t",
  label: "New comments",
};
const firstLink = (text: string) => text.match(/https?:\/\/\S+/)?.[0];

describe("mail templates", () => {
  it("account mail: text and HTML parts, the action as the first link, never an unsubscribe header", async () => {
    const url = "https://r.example/user-action?mode=verifyEmail&oobCode=abc";
    const mails = await Promise.all([
      verificationMail("a@example.com", url),
      resetPasswordMail("a@example.com", url),
      projectInviteMail({
        to: "a@example.com",
        inviter: "Ada",
        projectTitle: "Launch",
        access: "comment",
        url,
        isNewUser: true,
      }),
      teamInviteMail({
        to: "a@example.com",
        teamAdmin: "Ada",
        teamName: "Studio",
        access: "member",
        url,
        isNewUser: true,
      }),
      teamAccessMail({ to: "a@example.com", teamName: "Studio", access: "manager", url }),
      approverMail({ to: "a@example.com", ownerName: "Ada", projectTitle: "Launch", url }),
    ]);
    for (const mail of mails) {
      expect(firstLink(mail.text)).toBe(url);
      expect(mail.html).toContain(url.replace(/&/g, "&amp;"));
      expect(mail.text).toContain("— Redline");
      expect(mail.headers?.["List-Unsubscribe"]).toBeUndefined();
    }
    expect(mails[0]!.text).toContain("Welcome to Redline! Confirm your e-mail address to start reviewing.");
    expect(mails[2]!.text).toContain("Sign up and open the project");
    expect(mails[3]!.text).toContain("as a member");
    expect(mails[3]!.text).toContain("Sign up and join the team");
    expect(mails[4]!.text).toContain("You are now a manager in the team “Studio”");
    expect(mails[5]!.text).toContain("Ada made you an approver of “Launch”");
  });

  it("escapes what people typed in the HTML part", async () => {
    const mail = await projectInviteMail({
      to: "a@example.com",
      inviter: "<script>alert(1)</script>",
      projectTitle: "A & B",
      access: "view",
      url: "https://r.example/p",
      isNewUser: false,
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.text).toContain("“A & B”");
  });

  it("a notification mail: §9 wording, the deep link first, one-click unsubscribe headers", async () => {
    const url = "https://r.example/project/p/pg/v/comment?id=c1";
    const message = notificationMessage({
      type: "web-comment",
      context: { projectTitle: "Launch" },
      length: 5,
    });
    const mail = await notificationMail({
      to: "o@example.com",
      items: [{ actor: "Mo Member", message, about: "Homepage", url }],
      projectTitle: "Launch",
      settingsUrl: "https://r.example/profile",
      unsubscribe,
    });
    expect(mail.subject).toBe("Mo Member left 5 comments on page “Homepage”");
    expect(mail.text).toContain("Mo Member left 5 comments on page “Homepage” in Launch.");
    expect(firstLink(mail.text)).toBe(url);
    expect(mail.text).toContain(`Stop e-mails about new comments: ${unsubscribe.pageUrl}`);
    expect(mail.headers).toEqual({
      "List-Unsubscribe": `<${unsubscribe.oneClickUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("a batch lists every notification with its own link, newest first as given", async () => {
    const items = ["c3", "c2", "c1"].map((id) => ({
      actor: "Mo Member",
      message: "commented on page",
      about: "Homepage",
      url: `https://r.example/project/p/pg/v/comment?id=${id}`,
    }));
    const mail = await notificationMail({
      to: "o@example.com",
      items,
      projectTitle: "Launch",
      settingsUrl: "https://r.example/profile",
      unsubscribe,
    });
    expect(mail.subject).toBe("3 new notifications in “Launch”: new comments");
    expect(firstLink(mail.text)).toBe(items[0]!.url);
    for (const item of items)
      expect(mail.text).toContain(`Mo Member commented on page “Homepage”: ${item.url}`);
    expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("an added page: §9 wording, the page's link first, and no unsubscribe header (no preference covers it)", async () => {
    const url = "https://r.example/project/p/pg/v";
    const mail = await pagesAddedMail({
      to: "o@example.com",
      items: [{ actor: "Mo Member", pageTitle: "Pricing <beta>", url }],
      projectTitle: "Launch",
      projectUrl: "https://r.example/project/p",
      settingsUrl: "https://r.example/profile",
    });
    expect(mail.subject).toBe("Mo Member added page “Pricing <beta>”");
    expect(mail.text).toContain("Mo Member added page “Pricing <beta>” to Launch.");
    expect(mail.text).toContain("Open the page");
    expect(firstLink(mail.text)).toBe(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain("“Pricing &lt;beta&gt;”");
    expect(mail.text).toContain("You get this e-mail because you take part in “Launch”.");
    expect(mail.text).toContain("— Redline");
    expect(mail.headers).toBeUndefined();
  });

  it("a burst of added pages is one mail listing each page with its link", async () => {
    const items = ["Pricing", "About", "Home"].map((title, index) => ({
      actor: "Mo Member",
      pageTitle: title,
      url: `https://r.example/project/p/pg${index}/v${index}`,
    }));
    const common = {
      to: "o@example.com",
      projectTitle: "Launch",
      projectUrl: "https://r.example/project/p",
      settingsUrl: "https://r.example/profile",
    };
    const mail = await pagesAddedMail({ ...common, items });
    expect(mail.subject).toBe("Mo Member added 3 pages to project “Launch”");
    expect(mail.text).toContain("Mo Member added 3 pages to project Launch:");
    expect(firstLink(mail.text)).toBe(items[0]!.url);
    for (const item of items) {
      expect(mail.text).toContain(`“${item.pageTitle}”: ${item.url}`);
      expect(mail.html).toContain(`href="${item.url}"`);
    }
    expect(mail.text).toContain("Open the project");
    expect(mail.headers).toBeUndefined();

    const several = await pagesAddedMail({
      ...common,
      items: [items[0]!, { ...items[1]!, actor: "Rae Reviewer" }],
    });
    expect(several.subject).toBe("2 pages were added to project “Launch”");
    expect(several.text).toContain(`Rae Reviewer: “About”: ${items[1]!.url}`);
  });

  it("a new ticket: the panel's wording, the ticket's link first, and no unsubscribe header (no preference covers it)", async () => {
    const url = "https://r.example/project/p?t=t1";
    const mail = await ticketsAddedMail({
      to: "o@example.com",
      items: [{ actor: "Mo Member", ticketTitle: "Checkout <button> is grey", url }],
      projectTitle: "Shop bugs",
      projectUrl: "https://r.example/project/p",
      settingsUrl: "https://r.example/profile",
    });
    const wording = notificationMessage({
      type: "browse-ticket-add",
      context: { projectTitle: "Shop bugs" },
    });
    expect(mail.subject).toBe(`Mo Member ${wording} “Shop bugs”`);
    expect(mail.text).toContain("Mo Member created a ticket on Shop bugs: “Checkout <button> is grey”.");
    expect(mail.text).toContain("Open the ticket");
    expect(firstLink(mail.text)).toBe(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain("“Checkout &lt;button&gt; is grey”");
    expect(mail.text).toContain("You get this e-mail because you take part in “Shop bugs”.");
    expect(mail.text).toContain("— Redline");
    expect(mail.headers).toBeUndefined();
  });

  it("a burst of new tickets is one mail listing each ticket, by whom, with its link", async () => {
    const items = ["Coupon fails", "Logo blurry", "Menu overlaps"].map((title, index) => ({
      actor: index === 2 ? "Gail Guest" : "Mo Member",
      ticketTitle: title,
      url: `https://r.example/project/p?t=t${index}`,
    }));
    const mail = await ticketsAddedMail({
      to: "o@example.com",
      items,
      projectTitle: "Shop bugs",
      projectUrl: "https://r.example/project/p",
      settingsUrl: "https://r.example/profile",
    });
    expect(mail.subject).toBe("3 new tickets on “Shop bugs”");
    expect(mail.text).toContain("3 new tickets on Shop bugs:");
    expect(firstLink(mail.text)).toBe(items[0]!.url);
    for (const item of items) {
      expect(mail.text).toContain(`${item.actor}: “${item.ticketTitle}”: ${item.url}`);
      expect(mail.html).toContain(`href="${item.url}"`);
    }
    expect(mail.text).toContain("Open the board");
    expect(mail.headers).toBeUndefined();
  });

  it("ticket mail keeps its words and only a web address becomes a link", async () => {
    const resolved = await ticketResolvedMail({
      to: "g@example.com",
      reporterName: "Gail Guest",
      ticketTitle: "Coupon",
      pageUrl: "javascript:alert(1)",
    });
    expect(resolved.text).toContain("Hi Gail Guest,");
    expect(resolved.text).toContain("on javascript:alert(1) — “Coupon” — has been resolved");
    expect(resolved.html).not.toContain('href="javascript');
  });

  it("every e-mail preference gates some notification kind, or is one no instance sends", () => {
    const gated = new Set(NOTIFICATION_TYPES.map(emailPreferenceOf).filter(Boolean));
    for (const key of EMAIL_PREFERENCE_KEYS)
      expect(gated.has(key) !== UNSENT_EMAIL_PREFERENCES.includes(key), key).toBe(true);
  });
});
