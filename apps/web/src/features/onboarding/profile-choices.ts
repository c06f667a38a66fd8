/** What the profile setup offers to choose from (loaded with it). */
/** "How did you hear about us?" (SPEC §3 signupSource): the choices the profile setup offers. */
export const SIGNUP_SOURCES = [
  "Search engine",
  "A friend or colleague",
  "Social media",
  "A blog or article",
  "An event or talk",
  "Other",
] as const;

/** The built-in avatars a user may choose instead of a photo (SPEC §3: avatar ids start with 'avatar-'). */
export const BUILT_IN_AVATARS = [
  "avatar-1",
  "avatar-2",
  "avatar-3",
  "avatar-4",
  "avatar-5",
  "avatar-6",
] as const;
