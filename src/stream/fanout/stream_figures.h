// The stream's figures as plain values: what StreamStats measured of one
// rung's encoded stream over the last second, and what the video wiring
// adds about the encoding ladder. They travel as values (ViewerServices)
// and become JSON in one place, to_json(), at the two edges that send them:
// /stats and each viewer's stats message.
//
// Plain data; any thread. to_json() is pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/geometry.h"

namespace voxl::stream {

// The median time of each pipeline stage, in milliseconds.
struct StageMedians {
  double capture = 0;
  double convert = 0;
  double encode = 0;
  double to_loop = 0;  // capture -> published on the loop thread
};

// One rung's encoded stream over the last second.
struct RungFigures {
  size_t fps = 0;  // pictures (a striped picture's parts count once)
  size_t kbps = 0;
  size_t key_frames = 0;
  uint64_t frames_total = 0;  // pictures since the start
  Size size;                  // the last picture's
  std::string codec;          // the last picture's, "avc1.PPCCLL"
  // The frame rate the pacer allows and the coded pictures' median rate
  // factor: how the quantiser is traded against the frame rate.
  int frame_rate = 0;
  double rate_factor = 0;
  // The frame rate is held for smoothness rather than traded for sharpness
  // (stream/video/motion_choice.h): "motion" is "smooth" or "sharp".
  bool smooth = false;
  int encoder_threads = 0;  // x264's slice threads (stripes: bands at once) for the last picture
  int stripes = 1;
  StageMedians stage_ms;
};

// A rung of the encoding ladder that is coded or has consumers.
struct LadderRungFigures {
  int rung = 0;
  int consumers = 0;
  int target_kbps = 0;  // its bitrate ceiling
  RungFigures figures;
};

struct LadderFigures {
  int max_encodes = 1;  // --max-encodes
  int affordable = 1;   // how many rungs the machine affords now
  int work_pct = 0;     // converting and coding, in % of the frame intervals
  int moves = 0;        // sinks switched rungs so far (Hub::rung_moves)
  std::string rule;     // when the ladder shrinks and grows, in words
  std::vector<LadderRungFigures> rungs;  // at most kMaxRungs
};

struct StreamFigures {
  RungFigures stream;  // rung 0: what a lone viewer or a recording gets
  std::optional<LadderFigures> ladder;
};

// The JSON object /stats answers and a viewer's stats message starts from:
// the stream's keys (fps, kbps, key_frames, frames_total, width, height,
// codec, frame_rate, rate_factor, motion, encoder_threads, stripes,
// stage_ms) and,
// with a ladder, "ladder" (max_encodes, affordable, work_pct, moves, rule,
// rungs: rung, consumers, target_kbps, fps, kbps, frame_rate, rate_factor,
// width, height, encode_ms).
nlohmann::json to_json(const StreamFigures& f);

}  // namespace voxl::stream
