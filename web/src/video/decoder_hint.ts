// What to tell a viewer whose browser has WebCodecs but cannot decode the
// stream's codec: Firefox on Linux decodes H.264 only through the system's
// FFmpeg (libavcodec), which distributions ship apart from the browser.
// Pure: takes the user agent string.

export function undecodableMessage(codec: string | null, userAgent: string): string {
  const base = `this browser cannot decode ${codec ?? "the stream"}`;
  const h264 = codec === null || codec.startsWith("avc1.");
  if (h264 && /Firefox\//.test(userAgent) && /Linux/.test(userAgent) && !/Android/.test(userAgent)) {
    return `${base}: Firefox on Linux decodes H.264 with the system's FFmpeg; install libavcodec (Debian 12: libavcodec59) and restart Firefox`;
  }
  return base;
}
