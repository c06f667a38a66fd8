export * from "./auth.ts";
export * from "./mailbox.ts";
export * from "./users.ts";
