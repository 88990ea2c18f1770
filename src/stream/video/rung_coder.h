// One rung of the encoding ladder as the video thread codes it: the rung's
// state (LadderRung: encoder, frame rate, damage owed), encoders from an
// injected factory, and for rung 0 what only it does: 4:4:4 when every
// consumer takes it (ChromaPolicy, an encoder of its own) and the thread
// count under --adaptive-threads (EncoderThreadRule). code() turns one
// capture's request into frames, one per coded part.
//
// Threads: the video thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/logging.h"
#include "capture/frame.h"
#include "encode/encoded_frame.h"
#include "encode/video_encoder.h"
#include "encode/x264_encoder.h"
#include "stream/video/chroma_policy.h"
#include "stream/video/encoder_thread_rule.h"
#include "stream/video/frame_schedule.h"
#include "stream/video/ladder_rung.h"
#include "stream/video/picture_store.h"
#include "stream/video/video_settings.h"

namespace voxl::stream {

// What one capture asks of a rung.
struct RungJob {
  std::chrono::steady_clock::time_point got;  // when the capture was taken
  bool change = false;                        // it brought damage...
  std::span<const Rect> rects;                // ...these rectangles
  bool paintover = false;                     // a paintover is due
  bool key = false;                           // a key frame was asked for
  int max_kbps = 0;                           // the rung's ceiling now
  // Rung 0: every consumer decodes 4:4:4 and `source` is the whole picture.
  bool full_chroma = false;
  const capture::Frame* source = nullptr;     // the newest whole frame
  std::chrono::steady_clock::duration interval{};  // the pacer's frame interval
  int crf = 0;  // of motion frames (Motion::kSharp asks finer); 0: the encoder settings'
  // The paintover schedule: how a frame after a gap budgets its bits, and
  // the burst a switch to 4:4:4 extends. Not null.
  FrameSchedule* schedule = nullptr;
};

struct RungResult {
  enum class Kind {
    kIdle,       // nothing to code for this rung
    kUnchanged,  // a paintover found it sharp already
    kCoded,      // frames went out
    kFailed,     // no encoder could be made (`error` says why)
  };
  Kind kind = Kind::kIdle;
  bool restore_key = false;          // the key frame asked for is still owed
  bool settled = true;               // a paintover left nothing to sharpen
  uint32_t work_us = 0;              // its own conversion (4:4:4) and encode
  std::string error;
};

class RungCoder {
 public:
  using Clock = std::chrono::steady_clock;
  // Throws std::runtime_error when no encoder can be made.
  using EncoderFactory =
      std::function<std::unique_ptr<encode::VideoEncoder>(Size size, const encode::EncoderSettings& settings)>;
  using Emit = std::function<void(std::shared_ptr<encode::EncodedFrame>)>;

  // Paintover frames in a row at most after a switch to 4:4:4.
  static constexpr int kFullChromaBurst = 60;

  RungCoder(int index, const PipelineSettings& settings, EncoderFactory make_encoder, Logger log);

  LadderRung& ladder() { return rung_; }
  const LadderRung& ladder() const { return rung_; }

  // Codes `job` from `pictures`: frames copied from `base`, numbered from
  // `frame_id` on, handed to `emit`.
  RungResult code(const RungJob& job, PictureStore& pictures, const encode::EncodedFrame& base, uint32_t& frame_id,
                  const Emit& emit);

  // No one takes the rung, or the picture's size changed: its encoders go
  // (the next frame is a key frame), and with a new size the thread rule.
  void drop();
  void restart();

  // Rung 0 under --adaptive-threads, before a capture with new pixels is
  // coded: moves the encoder to the rule's thread count.
  void adapt_threads(Clock::time_point now, Size picture);

  // When a still screen may switch to 4:4:4 (ChromaPolicy::full_chroma_due).
  std::optional<Clock::time_point> full_chroma_due(bool allowed) const;
  // False once a 4:4:4 encoder could not be made: 4:2:0 from then on.
  bool full_chroma_possible() const { return full_chroma_ok_; }

 private:
  encode::EncoderSettings settings_for(int max_kbps) const;
  struct Format {
    encode::ChromaFormat format = encode::ChromaFormat::k420;
    bool switched = false;    // from the last frame's
    uint32_t convert_us = 0;  // bringing the 4:4:4 picture up to date
  };
  Format choose_format(const RungJob& job, PictureStore& pictures, bool key, bool paintover);
  void emit_parts(std::shared_ptr<encode::EncodedFrame> out, uint32_t& frame_id, const Emit& emit);

  int index_;
  const PipelineSettings& settings_;  // the pipeline's, which outlives its coders
  EncoderFactory make_encoder_;
  Logger log_;
  LadderRung rung_;
  std::vector<Rect> damage_;
  std::vector<encode::CodedPart> parts_;
  // Rung 0 only.
  ChromaPolicy chroma_;
  std::unique_ptr<encode::VideoEncoder> encoder444_;
  encode::ChromaFormat coded_ = encode::ChromaFormat::k420;  // of the last frame
  std::optional<Clock::time_point> last_sent_;
  std::optional<EncoderThreadRule> thread_rule_;
  bool full_chroma_ok_ = true;
};

}  // namespace voxl::stream
