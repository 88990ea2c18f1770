// Where the viewer's connection stands, as the client tracks it and the
// panel and the test hook (test_hook.ts) show it:
//   connecting    before the first connection opens
//   connected     the connection is open, no picture decoded yet
//   streaming     pictures are decoded
//   reconnecting  the connection dropped; another attempt follows
//   error         the stream cannot be shown (a fatal decoder error, or
//                 voxl refused the stream for a reason retrying cannot fix)
//   unsupported   this browser cannot decode at all; no client runs
// A type only, so that whoever needs it imports neither the client nor the
// test hook.

export type ClientState = "connecting" | "connected" | "streaming" | "reconnecting" | "error" | "unsupported";
