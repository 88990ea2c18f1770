#include "platform/pulse/microphone_fifo.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "platform/private_dir.h"

namespace voxl::platform::pulse {

namespace {

std::string mode_text(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", unsigned(mode & 07777));
  return buf;
}

std::string parent_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

}  // namespace

std::string default_microphone_fifo() { return user_runtime_dir() + "/voxl-mic.fifo"; }

MicrophoneFifo::MicrophoneFifo(std::string path) : path_(std::move(path)) {
  std::string why;
  fd_ = open_fifo(created_, why);
  if (fd_ < 0) throw std::runtime_error("microphone FIFO " + path_ + ": " + why);
}

int MicrophoneFifo::open_fifo(bool& created, std::string& why) {
  created = false;
  struct stat st{};
  if (lstat(path_.c_str(), &st) != 0) {
    if (mkfifo(path_.c_str(), 0600) != 0) {
      why = std::string("cannot create it: ") + std::strerror(errno);
      return -1;
    }
    created = true;
  }
  // Read and write: opening never waits for a reader, writes never fail
  // with EPIPE, and the oldest audio can be drained when the pipe is full.
  // O_NOFOLLOW: a symbolic link planted at the path is refused, not
  // followed (ELOOP); the checks below are on what was actually opened.
  const int fd = open(path_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    why = errno == ELOOP ? "is a symbolic link; voxl does not follow it"
                         : std::string("cannot open it: ") + std::strerror(errno);
    if (created) unlink(path_.c_str());
    created = false;
    return -1;
  }
  why = check_opened(fd);
  if (!why.empty()) {
    close(fd);
    if (created) unlink(path_.c_str());
    created = false;
    return -1;
  }
  fcntl(fd, F_SETPIPE_SZ, kPipeBytes);  // best effort: the default 64 KiB is ~680 ms
  return fd;
}

std::string MicrophoneFifo::check_opened(int fd) const {
  struct stat st{};
  if (fstat(fd, &st) != 0) return std::string("cannot examine it: ") + std::strerror(errno);
  if (!S_ISFIFO(st.st_mode)) return "exists and is not a FIFO";
  if (st.st_uid != geteuid())
    return "is owned by uid " + std::to_string(st.st_uid) + ", not by voxl's user (uid " +
           std::to_string(geteuid()) + "); another user could read or feed the microphone";
  if ((st.st_mode & 022) == 0) return {};
  // Writable by others. Harmless in a private directory (nobody else can
  // reach the path; PulseAudio makes its FIFO 0666 less the umask): tighten
  // it there. Elsewhere someone may already hold it open: refuse.
  if (private_dir_problem(parent_of(path_)).empty() && fchmod(fd, st.st_mode & 0755 & ~mode_t(022)) == 0) return {};
  return "has mode " + mode_text(st.st_mode) + ", which lets other users write into the microphone (chmod go-w " +
         path_ + ")";
}

bool MicrophoneFifo::reopen() {
  bool created = false;
  std::string why;
  const int fd = open_fifo(created, why);
  last_error_ = why;
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

}  // namespace voxl::platform::pulse
