import { DEVICES, type DeviceId } from "./devices.ts";

/** Desktop (1280), Tablet (768), Mobile (375): toggle buttons, the chosen one pressed. */
export function DeviceToolbar({ device, onChange }: { device: DeviceId; onChange(device: DeviceId): void }) {
  return (
    <fieldset className="device-toolbar">
      <legend className="visually-hidden">Device width</legend>
      {DEVICES.map((entry) => {
        const Icon = entry.icon;
        return (
          <button
            key={entry.id}
            type="button"
            className="device-toolbar__button"
            aria-pressed={device === entry.id}
            title={`${entry.label} (${entry.width} px)`}
            onClick={() => onChange(entry.id)}
          >
            <Icon size={16} aria-hidden />
            <span className="device-toolbar__label">{entry.label}</span>
          </button>
        );
      })}
    </fieldset>
  );
}
