// One PipeWire video stream, consumed: the desktop portal's screen cast as
// the compositor (GNOME's mutter, KDE's KWin, xdg-desktop-portal-wlr) makes
// it. voxl offers uncompressed 32-bit pictures in shared memory (BGRx,
// BGRA, RGBx, RGBA) of any size up to 8192x8192; no GPU buffers.
//
// Every picture the producer sends is whole; its damage (SPA_META_VideoDamage,
// or the whole picture where the producer sends none) says what changed
// since the one before. The stream holds one of the producer's buffers: the
// newest picture, kept after it is read (a producer sends nothing while the
// screen is still, and a key frame is copied from it), with the damage of
// every picture since the last mark_read(). When a newer one comes the
// older goes back to the producer, its damage kept. A picture the producer
// marks corrupt, or whose geometry does not fit its buffer, is given back
// unread with its damage kept, so the next good picture is copied where
// that one changed.
//
// Threads: one thread owns a stream and calls everything; it runs the
// stream's PipeWire loop inside wait(), so an idle stream costs nothing.
// Ownership: owns its PipeWire loop, context, connection and stream, and the
// connection's socket from construction on.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "platform/owned_file.h"

struct pw_buffer;

namespace voxl::platform::portal {

// A picture held from the producer, valid until the next wait() or dispatch().
struct HeldPicture {
  const uint8_t* data = nullptr;
  int stride = 0;  // bytes a row, at least width * 4
  Size size;
  bool red_first = false;  // RGBx/RGBA: red and blue swap places for BGRX
};

class PipewireStream {
 public:
  enum class Wait { kPicture, kTimeout, kWoken, kFailed };

  // `remote`: a socket connected to the PipeWire daemon (the portal's
  // OpenPipeWireRemote); `node`: the stream's node id from the portal.
  // Connects, and waits up to `limit` for the format to be agreed. Throws
  // std::runtime_error with the reason when the daemon refuses, the node
  // does not exist, or no format is agreed in time.
  PipewireStream(OwnedFile remote, uint32_t node, std::chrono::milliseconds limit);
  ~PipewireStream();
  PipewireStream(const PipewireStream&) = delete;
  PipewireStream& operator=(const PipewireStream&) = delete;

  // Runs the loop until a picture not yet read is held (at once if one is), `deadline`
  // passes, `wake_fd` (-1: none) becomes readable (it is not read), or the
  // stream fails.
  Wait wait(std::chrono::steady_clock::time_point deadline, int wake_fd);
  // Runs the loop's ready work without waiting.
  void dispatch();
  // Readable when the loop has work: for a caller's own event loop, which
  // then calls dispatch(). Owned by the stream.
  int loop_fd() const;

  // The newest picture, or null before the first.
  const HeldPicture* picture() const { return held_ ? &picture_ : nullptr; }
  // Whether a picture came since the last mark_read().
  bool fresh() const { return fresh_; }
  // What changed since the last mark_read(), in picture coordinates: with
  // whole() everything (unknown, or too much to list).
  const std::vector<Rect>& damage() const { return damage_; }
  bool whole() const { return whole_; }
  // The picture has been read: forgets the damage (the picture stays).
  void mark_read();

  // Pauses (false) or resumes the stream: a paused stream gets no pictures.
  void set_active(bool active);

  // The agreed size and format ("BGRx"); zero before agreement.
  Size size() const { return size_; }
  const std::string& format_name() const { return format_name_; }
  // Why the stream failed; empty while it works.
  const std::string& error() const { return error_; }

  struct Impl;  // PipeWire's callbacks reach it

 private:
  void run_once(int timeout_ms, int wake_fd, bool& woken);

  std::unique_ptr<Impl> impl_;
  pw_buffer* held_ = nullptr;
  HeldPicture picture_;
  std::vector<Rect> damage_;
  bool whole_ = false;
  bool fresh_ = false;
  Size size_;
  std::string format_name_;
  std::string error_;
};

}  // namespace voxl::platform::portal
