/**
 * The tour's pictures, drawn as inline SVG (no image files, nothing fetched): one small scene per slide,
 * in the design tokens' colours so a team's branding tints them too. Decorative: each slide's text says
 * everything the picture shows.
 */
import type { ReactNode } from "react";

const Frame = ({ children }: { children: ReactNode }) => (
  <svg className="tour__art" viewBox="0 0 320 160" role="presentation" aria-hidden focusable="false">
    <rect x="0" y="0" width="320" height="160" rx="12" className="tour__art-bg" />
    {children}
  </svg>
);

const Bar = ({ x, y, w, muted = false }: { x: number; y: number; w: number; muted?: boolean }) => (
  <rect
    x={x}
    y={y}
    width={w}
    height="8"
    rx="4"
    className={muted ? "tour__art-line--muted" : "tour__art-line"}
  />
);

function VersionLinks() {
  return (
    <Frame>
      <rect x="40" y="36" width="150" height="88" rx="8" className="tour__art-card" />
      <Bar x={56} y={54} w={70} />
      <Bar x={56} y={72} w={110} muted />
      <Bar x={56} y={88} w={90} muted />
      <rect x="176" y="64" width="110" height="32" rx="16" className="tour__art-accent" />
      <path d="M196 80h14m-4-5 5 5-5 5" className="tour__art-stroke-on-accent" />
      <rect x="218" y="76" width="52" height="8" rx="4" className="tour__art-on-accent" />
    </Frame>
  );
}

function RenameVersions() {
  return (
    <Frame>
      {[0, 1, 2].map((row) => (
        <g key={row} transform={`translate(60 ${30 + row * 36})`}>
          <rect
            width="200"
            height="28"
            rx="6"
            className={row === 1 ? "tour__art-card--active" : "tour__art-card"}
          />
          <Bar x={12} y={10} w={row === 1 ? 90 : 70} muted={row !== 1} />
          <path d="M156 18l8-8 4 4-8 8h-4z" className="tour__art-stroke" />
          <path d="M178 9h10m-8 0v12h6V9" className="tour__art-stroke" />
        </g>
      ))}
    </Frame>
  );
}

function SoundToggle() {
  return (
    <Frame>
      <path d="M96 102V74a24 24 0 0 1 48 0v28l8 8H88z" className="tour__art-card" />
      <circle cx="120" cy="118" r="6" className="tour__art-line" />
      <path d="M160 64c8 8 8 24 0 32m10-42c14 14 14 38 0 52" className="tour__art-stroke-accent" />
      <rect x="200" y="68" width="56" height="28" rx="14" className="tour__art-accent" />
      <circle cx="242" cy="82" r="10" className="tour__art-on-accent" />
    </Frame>
  );
}

function EmailAlerts() {
  return (
    <Frame>
      <rect x="40" y="44" width="96" height="68" rx="8" className="tour__art-card" />
      <path d="M44 50l44 32 44-32" className="tour__art-stroke" />
      {[0, 1, 2].map((row) => (
        <g key={row} transform={`translate(160 ${40 + row * 28})`}>
          <rect width="16" height="16" rx="4" className={row === 2 ? "tour__art-card" : "tour__art-accent"} />
          {row !== 2 ? <path d="M4 8l3 3 5-6" className="tour__art-stroke-on-accent" /> : null}
          <Bar x={26} y={4} w={row === 1 ? 70 : 96} muted={row === 2} />
        </g>
      ))}
    </Frame>
  );
}

function HideOrDelete() {
  return (
    <Frame>
      <rect x="40" y="48" width="240" height="64" rx="8" className="tour__art-card" />
      <Bar x={58} y={66} w={100} />
      <Bar x={58} y={84} w={70} muted />
      <path d="M196 80c8-10 24-10 32 0-8 10-24 10-32 0z" className="tour__art-stroke" />
      <circle cx="212" cy="80" r="4" className="tour__art-line" />
      <path d="M246 72l16 16m0-16-16 16" className="tour__art-stroke-accent" />
    </Frame>
  );
}

function PinToggle() {
  return (
    <Frame>
      <rect x="40" y="20" width="240" height="90" rx="8" className="tour__art-card" />
      <circle cx="110" cy="56" r="10" className="tour__art-accent" />
      <circle cx="200" cy="78" r="10" className="tour__art-accent" />
      <rect x="80" y="120" width="160" height="28" rx="14" className="tour__art-card--active" />
      <path d="M160 126a7 7 0 0 1 7 7c0 5-7 10-7 10s-7-5-7-10a7 7 0 0 1 7-7z" className="tour__art-accent" />
      <Bar x={100} y={130} w={36} muted />
      <Bar x={184} y={130} w={36} muted />
    </Frame>
  );
}

function WhatsNew() {
  return (
    <Frame>
      <rect x="70" y="30" width="180" height="100" rx="10" className="tour__art-card" />
      <path d="M100 54l4 10 10 4-10 4-4 10-4-10-10-4 10-4z" className="tour__art-accent" />
      <Bar x={126} y={56} w={96} />
      <Bar x={126} y={74} w={70} muted />
      <Bar x={92} y={98} w={136} muted />
      <Bar x={92} y={112} w={100} muted />
    </Frame>
  );
}

/** In TOUR_SLIDES' order (SPEC §1: the last seven hints). */
export const TOUR_ILLUSTRATIONS = [
  VersionLinks,
  RenameVersions,
  SoundToggle,
  EmailAlerts,
  HideOrDelete,
  PinToggle,
  WhatsNew,
] as const;

/** A heading per slide, the hint itself being the slide's text. */
export const TOUR_TITLES = [
  "Share a version",
  "Keep versions tidy",
  "Notification sounds",
  "E-mail alerts",
  "Hide or delete edits",
  "Show or hide pins",
  "What's New",
] as const;
