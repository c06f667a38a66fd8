import "./avatar.css";

/** The user's photo, or their initials on a neutral disc. Decorative unless given a label. */
export function Avatar({
  name,
  photoURL,
  size = 32,
}: {
  name: string;
  photoURL: string | null;
  size?: number;
}) {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => word[0]?.toUpperCase())
      .join("") || "?";
  // A built-in avatar is an id ('avatar-share-2', SPEC §3), not a picture: its own colour, initials.
  const builtIn = photoURL?.startsWith("avatar-") ? photoURL : null;
  const picture = builtIn ? null : photoURL;
  return (
    <span
      className="avatar"
      style={{
        width: size,
        height: size,
        fontSize: Math.round(size * 0.4),
        ...(builtIn
          ? { background: AVATAR_COLOURS[colourIndex(builtIn) % AVATAR_COLOURS.length], color: "#fff" }
          : {}),
      }}
      data-avatar={builtIn ?? undefined}
      aria-hidden
    >
      {picture ? <img className="avatar__img" src={picture} alt="" /> : initials}
    </span>
  );
}

const AVATAR_COLOURS = [
  "#6d28d9",
  "#0e7490",
  "#b45309",
  "#be123c",
  "#15803d",
  "#1d4ed8",
  "#a21caf",
  "#4d7c0f",
];

/** The profile setup's built-in avatars ('avatar-1' …) each have their own colour; others by hash. */
function colourIndex(avatar: string): number {
  const numbered = /^avatar-(\d+)$/.exec(avatar);
  return numbered ? Number(numbered[1]) - 1 : hash(avatar);
}

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}
