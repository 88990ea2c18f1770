// Small DOM builders the panel's sections share: a titled section, a button
// with an icon, a labelled select, a checkbox. Main thread.

import { icon, type IconName } from "./icons";

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { id?: string; className?: string; text?: string } = {},
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props.id) e.id = props.id;
  if (props.className) e.className = props.className;
  if (props.text !== undefined) e.textContent = props.text;
  return e;
}

// A <section> with a heading; returns the section (append to it).
export function section(id: string, title: string, iconName?: IconName): HTMLElement {
  const s = el("section", { id, className: "panel-section" });
  const h = s.appendChild(el("h2"));
  if (iconName) h.appendChild(icon(iconName));
  h.append(title);
  return s;
}

export function button(id: string, text: string, onClick: () => void, iconName?: IconName): HTMLButtonElement {
  const b = el("button", { id });
  b.type = "button";
  if (iconName) b.appendChild(icon(iconName));
  b.append(text);
  b.addEventListener("click", onClick);
  return b;
}

export function select(id: string, label: string, options: [string, string][], onChange: (value: string) => void): {
  label: HTMLLabelElement;
  select: HTMLSelectElement;
} {
  const l = el("label", { className: "field" });
  l.append(label);
  const s = l.appendChild(el("select", { id }));
  for (const [value, text] of options) {
    const o = s.appendChild(el("option", { text }));
    o.value = value;
  }
  s.addEventListener("change", () => onChange(s.value));
  return { label: l, select: s };
}

export function checkbox(id: string, label: string, onChange: (on: boolean) => void): {
  label: HTMLLabelElement;
  input: HTMLInputElement;
} {
  const l = el("label", { className: "check" });
  const i = l.appendChild(el("input", { id }));
  i.type = "checkbox";
  i.addEventListener("change", () => onChange(i.checked));
  l.append(label);
  return { label: l, input: i };
}

// localStorage where the browser allows it, else nothing is kept.
export function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// Keeps Tab inside `container` (a panel): from its last focusable element
// Tab goes to its first, and Shift+Tab the other way.
export function wrapTab(container: HTMLElement, e: KeyboardEvent): void {
  const items = Array.from(container.querySelectorAll<HTMLElement>("button, a[href], input, select, textarea")).filter(
    (x) => !(x as HTMLInputElement).disabled && x.tabIndex >= 0 && x.getClientRects().length > 0,
  );
  if (items.length === 0) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
