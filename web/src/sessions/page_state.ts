// What the page shows, kept on <body> for anyone watching (tests among
// them): data-state is "list", "loading" or "ready"; data-segment the
// segment playing; data-session-ms the session moment on screen;
// data-seeked the last requested moment whose seek finished. And the one
// error line, #error.

export type PageState = "list" | "loading" | "ready";

export function setPageState(state: PageState): void {
  document.body.dataset.state = state;
}

export function setSegment(index: number | null): void {
  if (index === null) delete document.body.dataset.segment;
  else document.body.dataset.segment = String(index);
}

export function setSessionMs(ms: number | null): void {
  if (ms === null) delete document.body.dataset.sessionMs;
  else document.body.dataset.sessionMs = String(Math.round(ms));
}

export function setSeeked(ms: number | null): void {
  if (ms === null) delete document.body.dataset.seeked;
  else document.body.dataset.seeked = String(Math.round(ms));
}

// Shows `text` in #error, or hides the line for null.
export function showError(text: string | null): void {
  const el = document.getElementById("error");
  if (!el) return;
  el.textContent = text ?? "";
  el.hidden = text === null;
}
