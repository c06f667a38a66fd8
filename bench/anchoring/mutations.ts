/**
 * The mutation language of the anchoring corpus: DOM edits a redesign, a content update or a
 * framework rebuild make between two captured versions. `applyMutations` runs inside the page
 * (page.evaluate), so it must stay self-contained: no imports, no outer helpers.
 */

export type Where = "beforebegin" | "afterbegin" | "beforeend" | "afterend";

export type Mutation =
  /** Insert HTML next to the first (or nth) match. */
  | { op: "insert"; at: string; where: Where; html: string; nth?: number }
  /** Wrap each match in a copy of `html` (an empty element). */
  | { op: "wrap"; sel: string; html: string; all?: boolean; nth?: number }
  /** Move a match next to another element. */
  | { op: "move"; sel: string; to: string; where: Where; nth?: number; toNth?: number }
  /** Put the children of the matched parent in this order (indices into the old order; others follow). */
  | { op: "reorder"; sel: string; order: number[]; nth?: number }
  /** Replace `from` with `to` in the match's text (whole text when `from` is absent). */
  | { op: "text"; sel: string; from?: string; to: string; nth?: number; all?: boolean }
  | { op: "remove"; sel: string; nth?: number; all?: boolean }
  /** Set (null: remove) an attribute on the match(es). */
  | { op: "attr"; sel: string; name: string; value: string | null; nth?: number; all?: boolean }
  | { op: "class"; sel: string; add?: string[]; remove?: string[]; nth?: number; all?: boolean }
  /** Copy a match (without its truth marks) next to it or elsewhere, then edit the copy's texts. */
  | {
      op: "clone";
      sel: string;
      nth?: number;
      to?: string;
      where: Where;
      /** Text (`to`) or attribute (`attr` = `value`) edits inside the copy. */
      edits?: { sel: string; to?: string; attr?: string; value?: string }[];
    }
  /** Change the element's tag, keeping attributes and children. */
  | { op: "retag"; sel: string; tag: string; nth?: number; all?: boolean }
  /** Re-generate every class matching `pattern` (and the style sheets using it), as a rebuild does. */
  | { op: "rehash"; pattern: string; salt: string }
  /** Re-number framework ids (`:r3:` → `:r8:`) and every attribute referring to them. */
  | { op: "reid"; pattern: string; shift: number };

export function applyMutations(input: { mutations: Mutation[]; truth: string }): string[] {
  const { mutations, truth } = input;
  const problems: string[] = [];
  const pick = (sel: string, nth: number | undefined, all: boolean | undefined): Element[] => {
    const found = Array.from(document.querySelectorAll(sel));
    if (found.length === 0) problems.push(`no match: ${sel}`);
    if (all) return found;
    const one = found[nth ?? 0];
    if (!one && found.length > 0) problems.push(`no match #${nth}: ${sel}`);
    return one ? [one] : [];
  };
  const fragment = (html: string): Element => {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild!;
  };
  const replaceText = (element: Element, from: string | undefined, to: string) => {
    if (from === undefined) {
      element.textContent = to;
      return;
    }
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue?.includes(from)) {
        node.nodeValue = node.nodeValue.replace(from, to);
        return;
      }
    }
    problems.push(`text not found: ${from}`);
  };
  const hash = (value: string, salt: string) => {
    let h = 2166136261;
    for (const char of value + salt) h = Math.imul(h ^ char.charCodeAt(0), 16777619) >>> 0;
    return h.toString(36).padStart(6, "0").slice(0, 6);
  };

  for (const m of mutations) {
    switch (m.op) {
      case "insert":
        for (const element of pick(m.at, m.nth, false)) element.insertAdjacentHTML(m.where, m.html);
        break;
      case "wrap":
        for (const element of pick(m.sel, m.nth, m.all)) {
          const wrapper = fragment(m.html);
          element.replaceWith(wrapper);
          wrapper.append(element);
        }
        break;
      case "move": {
        const [element] = pick(m.sel, m.nth, false);
        const [target] = pick(m.to, m.toNth, false);
        if (element && target) target.insertAdjacentElement(m.where, element);
        break;
      }
      case "reorder":
        for (const parent of pick(m.sel, m.nth, false)) {
          const children = Array.from(parent.children);
          const ordered = m.order.map((index) => children[index]).filter((child) => child !== undefined);
          const rest = children.filter((child) => !ordered.includes(child));
          parent.append(...ordered, ...rest);
        }
        break;
      case "text":
        for (const element of pick(m.sel, m.nth, m.all)) replaceText(element, m.from, m.to);
        break;
      case "remove":
        for (const element of pick(m.sel, m.nth, m.all)) element.remove();
        break;
      case "attr":
        for (const element of pick(m.sel, m.nth, m.all)) {
          if (m.value === null) element.removeAttribute(m.name);
          else element.setAttribute(m.name, m.value);
        }
        break;
      case "class":
        for (const element of pick(m.sel, m.nth, m.all)) {
          element.classList.remove(...(m.remove ?? []));
          element.classList.add(...(m.add ?? []));
        }
        break;
      case "clone":
        for (const element of pick(m.sel, m.nth, false)) {
          const copy = element.cloneNode(true) as Element;
          copy.removeAttribute(truth);
          for (const marked of Array.from(copy.querySelectorAll(`[${truth}]`))) marked.removeAttribute(truth);
          for (const edit of m.edits ?? []) {
            const inner = copy.matches(edit.sel) ? copy : copy.querySelector(edit.sel);
            if (!inner) problems.push(`clone edit: no ${edit.sel}`);
            else if (edit.attr) inner.setAttribute(edit.attr, edit.value ?? "");
            else if (edit.to !== undefined) inner.textContent = edit.to;
          }
          const [target] = m.to ? pick(m.to, undefined, false) : [element];
          target?.insertAdjacentElement(m.where, copy);
        }
        break;
      case "retag":
        for (const element of pick(m.sel, m.nth, m.all)) {
          const replacement = document.createElement(m.tag);
          for (const { name, value } of Array.from(element.attributes)) replacement.setAttribute(name, value);
          replacement.append(...Array.from(element.childNodes));
          element.replaceWith(replacement);
        }
        break;
      case "rehash": {
        const pattern = new RegExp(m.pattern);
        const renamed = new Map<string, string>();
        const rename = (name: string) => {
          if (!pattern.test(name)) return name;
          let next = renamed.get(name);
          if (!next) {
            const prefix = name.match(pattern)?.[1] ?? "";
            // A class must not start with a digit to be selectable in CSS (build tools prefix one).
            const hashed = hash(name, m.salt);
            next = `${prefix}${!prefix && /^\d/.test(hashed) ? `c${hashed}` : hashed}`;
            renamed.set(name, next);
          }
          return next;
        };
        for (const element of Array.from(document.querySelectorAll("[class]"))) {
          const classes = Array.from(element.classList);
          element.setAttribute("class", classes.map(rename).join(" "));
        }
        for (const style of Array.from(document.querySelectorAll("style"))) {
          let css = style.textContent ?? "";
          for (const [from, to] of renamed) css = css.split(`.${from}`).join(`.${to}`);
          style.textContent = css;
        }
        break;
      }
      case "reid": {
        const pattern = new RegExp(m.pattern, "g");
        const shift = (value: string) =>
          value.replace(pattern, (whole, digits: string) =>
            whole.replace(digits, String(Number(digits) + m.shift)),
          );
        for (const element of Array.from(document.querySelectorAll("*"))) {
          for (const name of ["id", "for", "aria-labelledby", "aria-describedby", "aria-controls"]) {
            const value = element.getAttribute(name);
            if (value !== null) element.setAttribute(name, shift(value));
          }
        }
        break;
      }
    }
  }
  return problems;
}
