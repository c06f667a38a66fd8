export * from "./auth.ts";
export * from "./mailbox.ts";
export * from "./projects.ts";
export * from "./users.ts";
