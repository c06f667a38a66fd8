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

/** '[i/n] New page added to your project.' */
export const pageAddedMessage = (index: number, total: number) =>
  `[${index}/${total}] New page added to your project.`;
