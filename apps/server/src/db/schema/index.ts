export * from "./auth.ts";
export * from "./comments.ts";
export * from "./mailbox.ts";
export * from "./projects.ts";
export * from "./users.ts";
