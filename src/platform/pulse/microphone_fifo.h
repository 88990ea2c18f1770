// The FIFO the viewer's microphone is written to, as 48 kHz mono s16le PCM,
// for PulseAudio's module-pipe-source to read. It opens the FIFO at the
// path (the pipe source's) or creates one (mode 0600), and holds it open
// for reading and writing, so a write
// never fails for want of a reader and never blocks: when the pipe is full
// (nobody reads, or too slowly), the oldest audio in it is drained to make
// room. The pipe is sized to ~170 ms, which bounds the added latency.
//
// The path is opened with O_NOFOLLOW and what was opened is checked: a
// FIFO, owned by voxl's user, not writable by group or others (tightened to
// that when it lies in a private directory, refused elsewhere). Anything
// else is refused with a message saying what is wrong.
//
// Threads: one thread at a time (the loop thread). Never blocks.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace voxl::platform::pulse {

// The default path: $XDG_RUNTIME_DIR/voxl-mic.fifo, or /tmp/voxl-<uid>/
// (created 0700 and checked) without a usable XDG_RUNTIME_DIR. Throws
// std::runtime_error when that directory is not private.
std::string default_microphone_fifo();

class MicrophoneFifo {
 public:
  // Throws std::runtime_error when the path exists and is not a FIFO (a
  // symbolic link, a regular file), is another user's or writable by
  // others, or cannot be created or opened (start-up only).
  explicit MicrophoneFifo(std::string path);
  ~MicrophoneFifo();  // removes the FIFO if it created it

  // Opens the path again (the file there was replaced), creating a FIFO
  // when there is none. False, with the old descriptor kept, on failure
  // (last_error() says why).
  bool reopen();
  const std::string& last_error() const { return last_error_; }
  bool created() const { return created_; }
  MicrophoneFifo(const MicrophoneFifo&) = delete;
  MicrophoneFifo& operator=(const MicrophoneFifo&) = delete;

  // Writes all of `pcm`, dropping older buffered audio if needed; false
  // (and the samples dropped) only on an unexpected error.
  bool write(std::span<const int16_t> pcm);

  const std::string& path() const { return path_; }
  uint64_t dropped_bytes() const { return dropped_bytes_; }

  static constexpr int kPipeBytes = 16384;

 private:
  // Opens or creates the FIFO at path_ and checks it; -1 with `why` set on
  // failure.
  int open_fifo(bool& created, std::string& why);
  // Empty when the opened `fd` is a FIFO voxl may use, else why not.
  std::string check_opened(int fd) const;

  std::string path_;
  int fd_ = -1;
  bool created_ = false;
  std::string last_error_;
  uint64_t dropped_bytes_ = 0;
};

}  // namespace voxl::platform::pulse
