export * from "./auth.ts";
export * from "./billing.ts";
export * from "./comments.ts";
export * from "./inspect.ts";
export * from "./mailbox.ts";
export * from "./notifications.ts";
export * from "./projects.ts";
export * from "./users.ts";
