// One PipeWire video stream, consumed: the desktop portal's screen cast as
// the compositor (GNOME's mutter, KDE's KWin, xdg-desktop-portal-wlr) makes
// it. voxl offers uncompressed 32-bit pictures in shared memory (BGRx,
// BGRA, RGBx, RGBA) of any size up to 8192x8192; no GPU buffers.
//
// Every picture the producer sends is whole; its damage (SPA_META_VideoDamage,
// or the whole picture where the producer sends none) says what changed
// since the one before. The stream holds one of the producer's buffers: the
// newest picture, kept after it is read, since a compositor sends nothing
// while the screen is still (nor to a consumer that joins later). When a
// newer one comes the older goes back to the producer. A picture the
// producer marks corrupt, or whose geometry does not fit its buffer, is
// given back unread with its damage kept, so the next good picture is
// copied where that one changed.
//
// One stream serves every consumer of a portal session (the capturer, the
// damage watcher), each through a StreamReader of its own that keeps the
// damage since it last took it: the compositor copies each picture once.
//
// Threads: PipeWire's callbacks run on a thread of the stream's own (its
// pw_thread_loop); the state they share with the readers is under the
// loop's lock. A reader is used by one thread at a time (the capturer
// moves between threads). Ownership: the stream owns its loop, context,
// connection and stream, and the connection's socket from construction
// on; readers share the stream.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/geometry.h"
#include "platform/owned_file.h"

namespace voxl::platform::portal {

// The newest picture, borrowed inside with_picture().
struct HeldPicture {
  const uint8_t* data = nullptr;
  int stride = 0;  // bytes a row, at least width * 4
  Size size;
  bool red_first = false;  // RGBx/RGBA: red and blue swap places for BGRX
};

// What came since the last take_news().
struct StreamNews {
  bool fresh = false;  // a picture came
  bool whole = false;  // everything changed (unknown, too much to list, a new size)
  std::vector<Rect> damage;
  Size size;
  std::string error;  // why the stream failed; empty while it works
};

class StreamReader;

class PipewireStream {
 public:
  // `remote`: a socket connected to the PipeWire daemon (the portal's
  // OpenPipeWireRemote); `node`: the stream's node id from the portal.
  // Connects, and waits up to `limit` for the format to be agreed. Throws
  // std::runtime_error with the reason when the daemon refuses, the node
  // does not exist, or no format is agreed in time.
  PipewireStream(OwnedFile remote, uint32_t node, std::chrono::milliseconds limit);
  ~PipewireStream();
  PipewireStream(const PipewireStream&) = delete;
  PipewireStream& operator=(const PipewireStream&) = delete;

  // Whether the stream has failed (a reader's take_news() says why).
  bool failed() const;
  // The agreed format ("BGRx") and size.
  std::string format_name() const;
  Size size() const;

  struct Impl;  // PipeWire's callbacks reach it

 private:
  friend class StreamReader;
  void lock() const;
  void unlock() const;

  OwnedFile state_fd_;  // an eventfd: the format agreed, or the stream failed
  std::unique_ptr<Impl> impl_;
};

// One consumer's view of a PipewireStream: what changed since it last
// looked. Its first news is the picture the stream holds, whole.
class StreamReader {
 public:
  enum class Wait { kNews, kTimeout, kWoken };

  explicit StreamReader(std::shared_ptr<PipewireStream> stream);
  ~StreamReader();
  StreamReader(const StreamReader&) = delete;
  StreamReader& operator=(const StreamReader&) = delete;

  // Waits until a picture came or the stream failed since the last
  // take_news() (at once if so), `deadline` passes, or `wake_fd` (-1: none)
  // becomes readable (it is not read).
  Wait wait(std::chrono::steady_clock::time_point deadline, int wake_fd);
  // Readable once news came: for a caller's own event loop, which reads it
  // empty with clear_signal() (wait() does so itself). Taking the news
  // leaves it alone: no system call a frame.
  int news_fd() const { return news_fd_.get(); }
  // Whether there is news, without taking it.
  bool has_news() const;
  StreamNews take_news();
  // Reads news_fd() empty without taking the news.
  void clear_signal();
  // Calls `use` with the newest picture (null before the first), which the
  // producer cannot take back meanwhile.
  void with_picture(const std::function<void(const HeldPicture*)>& use) const;
  const PipewireStream& stream() const { return *stream_; }

 private:
  friend struct PipewireStream::Impl;

  std::shared_ptr<PipewireStream> stream_;
  OwnedFile news_fd_;  // an eventfd the stream's thread writes
  StreamNews news_;    // under the stream's lock
};

}  // namespace voxl::platform::portal
