// A small button in the top right corner that puts the page in fullscreen,
// where the browser lets the page keep shortcuts like Ctrl+W or Alt+Tab for
// the desktop (Keyboard Lock, see input/keyboard.ts). Hidden in fullscreen,
// and where the browser has no fullscreen at all.

export function installFullscreenButton(parent: HTMLElement): void {
  if (!document.fullscreenEnabled) return;
  const b = document.createElement("button");
  b.type = "button";
  b.title = "Fullscreen: shortcuts like Ctrl+W go to the desktop (Esc held to leave)";
  b.setAttribute("aria-label", "fullscreen");
  b.textContent = "⛶";
  Object.assign(b.style, {
    position: "fixed", right: "6px", top: "6px", width: "28px", height: "28px", padding: "0",
    border: "0", borderRadius: "4px", background: "rgba(40,40,40,0.6)", color: "#eee",
    font: "18px/28px system-ui, sans-serif", cursor: "pointer", opacity: "0.35", zIndex: "10",
  });
  b.addEventListener("mouseenter", () => (b.style.opacity = "1"));
  b.addEventListener("mouseleave", () => (b.style.opacity = "0.35"));
  b.addEventListener("click", () => {
    document.documentElement.requestFullscreen({ navigationUI: "hide" }).catch(() => undefined);
  });
  document.addEventListener("fullscreenchange", () => {
    b.hidden = document.fullscreenElement !== null;
  });
  parent.appendChild(b);
}
