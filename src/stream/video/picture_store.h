// The pictures the encoders code, kept current by the video thread: the
// 4:2:0 one is brought up to date with every capture's damage; the 4:4:4
// one only while rung 0 codes 4:4:4, made whole from the newest captured
// frame when it switches (so motion costs no 4:4:4 conversion). The newest
// whole frame is held while 4:4:4 may be asked for; the capturer keeps the
// pool's other buffer meanwhile.
//
// Threads: the video thread only (the converter's workers are its own).
#pragma once

#include <span>
#include <vector>

#include "base/geometry.h"
#include "capture/frame.h"
#include "encode/color_converter.h"
#include "encode/i420_image.h"

namespace voxl::stream {

class PictureStore {
 public:
  PictureStore(int convert_threads, encode::ColourRange full_chroma_range);

  // Converts `frame`'s damage (`damage`: its rectangles) into the 4:2:0
  // picture. When the frame's encodable size differs from the picture's,
  // the picture is made anew, `damage` becomes all of it and this returns
  // true. An empty encodable size converts nothing.
  bool take(const capture::Frame& frame, std::vector<Rect>& damage);

  const encode::I420Image& picture() const { return image_; }
  Size size() const { return image_.size(); }

  // The 4:4:4 picture brought up to date from `source`: all of it when
  // `whole`, else `damage` only.
  const encode::I420Image& full_chroma(const capture::Frame& source, bool whole, std::span<const Rect> damage);
  // The 4:4:4 picture as the last full_chroma() left it.
  const encode::I420Image& full_chroma_picture() const { return image444_; }

  // The newest captured frame, kept (or not) for a later switch to 4:4:4.
  void keep(capture::FrameRef frame) { last_ = std::move(frame); }
  void forget() { last_.reset(); }
  const capture::Frame* last() const { return last_.get(); }
  // Whether the kept frame covers the current picture (the same size).
  bool last_is_whole() const;

 private:
  encode::ColorConverter converter_;
  encode::ColourRange full_range_;
  encode::I420Image image_;
  encode::I420Image image444_;
  capture::FrameRef last_;
};

}  // namespace voxl::stream
