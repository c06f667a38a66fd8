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
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }}
      aria-hidden
    >
      {photoURL ? <img className="avatar__img" src={photoURL} alt="" /> : initials}
    </span>
  );
}
