// Whether this page can decode video at all. WebCodecs exists only in secure
// contexts, so a plain-http page on another machine's address gets no decoder;
// saying so beats a black screen.

export interface Unsupported {
  title: string;
  detail: string[];
}

export function checkSupport(w: Window & typeof globalThis = window): Unsupported | null {
  if (!w.isSecureContext) {
    const port = w.location.port ? `:${w.location.port}` : "";
    return {
      title: "Video needs a secure context",
      detail: [
        "This browser only decodes video (WebCodecs) on pages it considers secure, " +
          `and ${w.location.origin} is not one.`,
        `On the machine running voxl, open \`http://localhost${port}/\` or \`http://127.0.0.1${port}/\` instead.`,
        "From another machine, start voxl with " +
          "`--enable-https --https-cert FILE --https-key FILE` and open its `https://` address.",
      ],
    };
  }
  if (typeof w.VideoDecoder === "undefined" || typeof w.EncodedVideoChunk === "undefined") {
    return {
      title: "This browser cannot decode video",
      detail: [
        "It lacks WebCodecs (VideoDecoder).",
        "Use a recent Chromium, Chrome or Edge, Firefox 130 or later, or Safari 17 or later.",
      ],
    };
  }
  return null;
}
