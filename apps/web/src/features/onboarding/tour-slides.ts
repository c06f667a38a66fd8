/**
 * The tour's texts (SPEC §1), kept in the web feature so they load with the tour, not with every page.
 */
/** SPEC §1's hints, in its order. */
export const TOUR_HINTS = [
  "The activity bar holds all comments and edits on the page.",
  "See all versions and reach the latest build.",
  "Hold Ctrl/Command and hover to see the relative position of the selected object.",
  "Hold Shift and press arrow keys to move an object by 10 pixels.",
  "Ctrl/Command+B/I/U change text properties.",
  "Share a project by hovering the top right of the project card and adding e-mail addresses.",
  "Rename a project by clicking the card title.",
  "Send a sharing link to clients.",
  "Add several pages from the same URL by entering the URL and using the dropdown.",
  "Ctrl/Command+Z undoes changes.",
  "Share individual versions as external links.",
  "Rename or delete versions.",
  "Toggle in-app sound notifications.",
  "Choose which e-mail alerts to receive.",
  "Hide edits with an eye icon or delete them with an X icon.",
  "Toggle comment and edit pins from the pin icon on the bottom bar.",
  "See new updates in What's New.",
] as const;

/** "The tour has seven slides in the order of the last seven hints" (SPEC §1). */
export const TOUR_SLIDES = TOUR_HINTS.slice(-7);
