// What ffprobe and ffmpeg say of a recording, and a PNG decoded with
// libpng: the checks the agent endpoint tests make on real files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/geometry.h"

namespace voxl::testing {

struct Mp4Probe {
  std::string error;  // set when ffprobe failed or said something unexpected
  std::string codec;
  int width = 0;
  int height = 0;
  int frames = 0;         // counted by decoding (-count_frames)
  double duration = 0;    // seconds, from the container
  std::string decode_log;  // ffmpeg -v error output of a full decode: empty when clean
  int decode_status = -1;  // its exit status
  bool first_frame_key = false;  // the first frame decodes as an I key frame
};

// Writes `mp4` to a temporary file and runs ffprobe and ffmpeg on it.
Mp4Probe probe_mp4(const std::string& mp4);

struct DecodedPng {
  std::string error;
  Size size;
  std::vector<uint32_t> rgb;  // 0x00RRGGBB, row-major
  uint32_t at(int x, int y) const { return rgb[size_t(y) * size_t(size.width) + size_t(x)]; }
};

DecodedPng decode_png(const std::string& png);

}  // namespace voxl::testing
