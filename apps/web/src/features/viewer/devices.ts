/** The device toolbar's widths: the snapshot re-flows at each (its own CSS media queries apply). */
import { Monitor, Smartphone, Tablet } from "lucide-react";

export const DEVICES = [
  { id: "desktop", label: "Desktop", width: 1280, icon: Monitor },
  { id: "tablet", label: "Tablet", width: 768, icon: Tablet },
  // SPEC §9: the mobile frame is 731 px high.
  { id: "mobile", label: "Mobile", width: 375, height: 731, icon: Smartphone },
] as const;

export type DeviceId = (typeof DEVICES)[number]["id"];

export function deviceSize(device: DeviceId): { width: number; height: number | null } {
  const entry = DEVICES.find((candidate) => candidate.id === device) ?? DEVICES[0];
  return { width: entry.width, height: "height" in entry ? entry.height : null };
}

export function isDeviceId(value: string | null): value is DeviceId {
  return DEVICES.some((entry) => entry.id === value);
}
