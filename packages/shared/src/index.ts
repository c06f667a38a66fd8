export * from "./api.ts";
export * from "./auth-errors.ts";
export * from "./constants.ts";
export * from "./limits.ts";
export * from "./messages.ts";
export * from "./projects.ts";
export * from "./titles.ts";
export * from "./user.ts";
