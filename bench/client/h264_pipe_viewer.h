// Reads a raw H.264 Annex B stream from a file descriptor (ffmpeg writing to
// a pipe: the "encoder floor" reference, which has no viewer protocol) and
// decodes it like the voxl viewer does. The encoder must emit access unit
// delimiters (x264 `aud=1`): an access unit ends where the next delimiter
// starts, or when the pipe goes quiet for a millisecond.
//
// Threads: one thread; run() blocks until its deadline.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "frame_recorder.h"
#include "picture_quality.h"

namespace voxl::bench {

struct PipeRun {
  int fd = 0;
  std::chrono::milliseconds warmup{3000};
  std::chrono::milliseconds measure{20000};
  std::chrono::milliseconds still{0};  // the still phase after the window
  std::function<void()> on_window_start;
  std::function<void()> on_still_start;
};

bool run_h264_pipe(const PipeRun& run, FrameRecorder& recorder, PictureQuality& quality, int& decode_errors,
                   std::string& error);

}  // namespace voxl::bench
