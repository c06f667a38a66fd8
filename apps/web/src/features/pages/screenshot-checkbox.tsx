/** Whether a page added by its address is captured whole ('Full-page screenshot') or as one screen. */
export function ScreenshotCheckbox({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Full-page screenshot
    </label>
  );
}
