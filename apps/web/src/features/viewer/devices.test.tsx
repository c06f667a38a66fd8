import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { DeviceToolbar } from "./device-toolbar.tsx";
import { deviceSize, isDeviceId } from "./devices.ts";

afterEach(cleanup);

describe("the device toolbar", () => {
  it("re-flows the page at each device's width; the mobile frame is 731 px high (SPEC §9)", () => {
    expect(deviceSize("desktop")).toEqual({ width: 1280, height: null });
    expect(deviceSize("tablet")).toEqual({ width: 768, height: null });
    expect(deviceSize("mobile")).toEqual({ width: 375, height: 731 });
  });

  it("accepts only known devices from the address bar", () => {
    expect(isDeviceId("mobile")).toBe(true);
    expect(isDeviceId("watch")).toBe(false);
    expect(isDeviceId(null)).toBe(false);
  });

  it("names each choice and reports the one picked", async () => {
    const picked: string[] = [];
    render(<DeviceToolbar device="desktop" onChange={(device) => picked.push(device)} />);
    await userEvent.click(screen.getByRole("button", { name: /Mobile/ }));
    expect(picked).toEqual(["mobile"]);
  });
});
