// How the video thread captures and codes: the encoder's settings and the
// policies around it (frame rates, conversion threads, stripes, the ladder,
// coalescing, paintover, 4:4:4), fixed for the pipeline's life.
//
// Plain data; copied into the pipeline, read by its thread.
#pragma once

#include "encode/i420_image.h"
#include "encode/x264_encoder.h"

namespace voxl::stream {

struct PipelineSettings {
  encode::EncoderSettings encoder;
  int max_fps = 60;
  // The frame rate may drop to this when the link cannot carry the motion
  // at an acceptable quantiser (FrameRateGovernor); max_fps locks it.
  int min_fps = 60;
  int convert_threads = 4;
  // --adaptive-threads: x264 starts on one slice thread and gets
  // encoder.threads (or the automatic count) only under sustained heavy
  // motion (EncoderThreadRule).
  bool adaptive_threads = false;
  // --stripes: the picture coded as this many horizontal bands, each its own
  // stream on its own thread (encode::StripeSet); 1 codes it whole. A
  // picture too short for that many gets fewer (stripe_bands).
  int stripes = 1;
  // --max-encodes: the rungs of the encoding ladder at most (1..kMaxRungs).
  int max_encodes = 1;
  // After a change, capture once no more damage has come for this long (at
  // most a quarter frame interval after the first, or coalesce_us if
  // longer), so a drawing made of many requests becomes one frame; 0
  // captures at the first report.
  int coalesce_us = 500;
  // Once the screen has been still for paintover_delay_ms, the last picture
  // is sent again paintover_burst times at paintover_crf: x264 codes only
  // the difference, sharpening what motion left blurred. Skipped while no
  // viewer can take a frame (the link is saturated).
  int paintover_crf = 16;
  int paintover_burst = 3;
  int paintover_delay_ms = 150;
  // Whether a still screen may be painted over in 4:4:4 (full-resolution
  // chroma) while set_full_chroma(true) says every consumer takes it, and
  // in which range its YUV is coded.
  bool full_chroma = true;
  encode::ColourRange full_chroma_range = encode::ColourRange::kLimited;
};

}  // namespace voxl::stream
