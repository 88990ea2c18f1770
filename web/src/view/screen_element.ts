// The element that shows the stream: a canvas (drawn by the page or by the
// render worker) or a video element fed with decoded frames
// (video_element_output.ts). Input, the cursor and the layout only need its
// box and the picture's own size in pixels.
//
// Main thread.

export type ScreenElement = HTMLCanvasElement | HTMLVideoElement;

export function pictureSize(el: ScreenElement): { width: number; height: number } {
  return el instanceof HTMLVideoElement ? { width: el.videoWidth, height: el.videoHeight } : { width: el.width, height: el.height };
}
