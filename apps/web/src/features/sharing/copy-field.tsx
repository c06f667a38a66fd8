/** A read-only link with a Copy button (the clipboard API, or selecting the text where it is missing). */
import { Check, Copy } from "lucide-react";
import { useRef } from "react";
import { Field } from "../../components/field.tsx";
import { useCopy } from "../../lib/use-copy.ts";

export function CopyField({ label, value }: { label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const { isCopied, copy } = useCopy(() => {
    input.current?.select();
    document.execCommand("copy");
    return true;
  });
  const handleCopy = () => copy(value);

  return (
    <Field label={label}>
      {(control) => (
        <>
          <div className="copy-field">
            <input
              ref={input}
              {...control}
              className="input copy-field__input"
              readOnly
              value={value}
              onFocus={(event) => event.target.select()}
            />
            <button
              type="button"
              className="btn"
              aria-label={`Copy ${label.toLowerCase()}`}
              onClick={handleCopy}
            >
              {isCopied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
              {isCopied ? "Copied" : "Copy"}
            </button>
          </div>
          <span className="visually-hidden" role="status">
            {isCopied ? `${label} copied to the clipboard` : ""}
          </span>
        </>
      )}
    </Field>
  );
}
