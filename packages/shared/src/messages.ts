/** User-visible texts from SPEC §8, verbatim. One place so both sides and the tests agree. */
export const MESSAGES = {
  passwordUpdated: "Password updated.",
  profileUpdated: "Profile updated.",
  verificationEmailSent: "Email verification email has been sent.",
  emailVerified: "Your email has been verified.",
  emailVerifiedSignedOut: "Your email has been verified. Please login to continue.",
  accountDeleted: "Account deleted.",
  backOnline: "We're back online!",
  offline: "You are offline. Reconnect to the internet and refresh the page.",
  somethingWentWrong: "Something went wrong...",
  reloadPage: "Reload page",
  goToHome: "Go to home",
  takeMeHome: "Take me home",
  pleaseWait: "Please wait...",
  maxFileSize: "Max file size is 5 MB.",
  pageLoadFailed: "Sorry, this page couldn't be loaded. Please try again or contact us.",
  projectNotFound: "Project not found. Redirecting to all projects.",
  projectNotAccessible: "Project is not found or accessible. Redirecting to all projects.",
  loadingDefault: "Loading experience...",
  loadingBuilding: "Building your experience. Might take a moment...",
  loadingFirst: "Loading your first experience. Might take a moment...",
} as const;

export const errorTitle = (code: number | string = 404) => `Error: ${code}`;

/** Project and page texts (SPEC §8). */
export const PROJECT_MESSAGES = {
  creating: "Creating new project...",
  created: "New project created.",
  deleted: "Project deleted.",
  thumbnailUpdated: "Project thumbnail updated.",
  fetchingPage: "Fetching page...",
  pageDeleted: "Page deleted.",
  fileDeleted: "File deleted.",
  pageDoesNotExist: "Page does not exist.",
  /** Not in SPEC §8 (which has no text for it); worded like its neighbours. */
  versionDeleted: "Version deleted.",
  loadPageError: "Error: Something went wrong while loading that page.",
} as const;

/** Team projects (SPEC §4): not in SPEC §8, worded like the team messages. */
export const TEAM_PROJECT_MESSAGES = {
  wrongProduct: "This team is for the other product: choose a team of the same product as the project.",
  notTeamMember: "Only the team's owner, managers and members add projects to it.",
  moved: "Project moved to the team.",
  leftTeam: "The project no longer belongs to a team.",
  collaboratorAdded: "Collaborator added to the project.",
  collaboratorRemoved: "Collaborator removed from the project.",
  noTeam: "This project does not belong to a team.",
} as const;

/** '[i/n] New page added to your project.' */
export const pageAddedMessage = (index: number, total: number) =>
  `[${index}/${total}] New page added to your project.`;
