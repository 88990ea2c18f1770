#include "audio/microphone_fifo.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace voxl::audio {

namespace {

std::runtime_error fifo_error(const std::string& path, const char* what) {
  return std::runtime_error("microphone FIFO " + path + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

MicrophoneFifo::MicrophoneFifo(std::string path) : path_(std::move(path)) {
  struct stat st{};
  if (lstat(path_.c_str(), &st) == 0 && !S_ISFIFO(st.st_mode))
    throw std::runtime_error("microphone FIFO " + path_ + " exists and is not a FIFO");
  fd_ = open_fifo(created_);
  if (fd_ < 0) throw fifo_error(path_, "cannot create or open it");
}

int MicrophoneFifo::open_fifo(bool& created) {
  created = false;
  struct stat st{};
  if (lstat(path_.c_str(), &st) != 0) {
    if (mkfifo(path_.c_str(), 0600) != 0) return -1;
    created = true;
  } else if (!S_ISFIFO(st.st_mode)) {
    errno = EEXIST;
    return -1;
  }
  // Read and write: opening never waits for a reader, writes never fail
  // with EPIPE, and the oldest audio can be drained when the pipe is full.
  const int fd = open(path_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (created) unlink(path_.c_str());
    created = false;
    errno = e;
    return -1;
  }
  fcntl(fd, F_SETPIPE_SZ, kPipeBytes);  // best effort: the default 64 KiB is ~680 ms
  return fd;
}

bool MicrophoneFifo::reopen() {
  bool created = false;
  const int fd = open_fifo(created);
  if (fd < 0) return false;
  close(fd_);
  fd_ = fd;
  created_ = created;
  return true;
}

MicrophoneFifo::~MicrophoneFifo() {
  if (fd_ >= 0) close(fd_);
  if (created_) unlink(path_.c_str());
}

bool MicrophoneFifo::write(std::span<const int16_t> pcm) {
  auto bytes = std::as_bytes(pcm);
  // The kernel frees pipe space a page at a time, so one drain may not make
  // room: keep dropping the oldest audio, a write's worth at a time, but
  // never more than the whole pipe.
  size_t drained = 0;
  bool failed = false;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes = bytes.subspan(size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) {
      failed = true;
      break;
    }
    if (drained > size_t(kPipeBytes)) break;
    // Whole samples, so the reader stays aligned.
    std::array<std::byte, 4096> sink;
    size_t to_drop = std::max<size_t>((bytes.size() + 1) & ~size_t(1), 2);
    while (to_drop > 0) {
      const ssize_t r = read(fd_, sink.data(), std::min(to_drop, sink.size()));
      if (r <= 0) break;
      dropped_bytes_ += size_t(r);
      drained += size_t(r);
      to_drop -= size_t(r);
    }
    if (to_drop > 0 && drained == 0) break;  // full, yet nothing to read: give up on this one
  }
  dropped_bytes_ += bytes.size();
  return !failed;
}

}  // namespace voxl::audio
