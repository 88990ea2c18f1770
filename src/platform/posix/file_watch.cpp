#include "platform/file_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace voxl::platform {

struct FileWatch::Impl {
  int inotify = -1;
  int stop[2] = {-1, -1};
  std::string name;  // the file's name in its folder
  std::function<void()> changed;
  std::thread thread;

  ~Impl() {
    for (int fd : {inotify, stop[0], stop[1]})
      if (fd >= 0) ::close(fd);
  }

  // True when the events read name the file (or the folder itself went).
  bool read_events() {
    alignas(inotify_event) char buf[16 * 1024];
    bool ours = false;
    for (;;) {
      const ssize_t n = ::read(inotify, buf, sizeof buf);
      if (n <= 0) return ours;  // EAGAIN: all read
      for (ssize_t at = 0; at < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
        if ((e->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW)) != 0) ours = true;
        if (e->len > 0 && name == e->name) ours = true;
        at += ssize_t(sizeof(inotify_event) + e->len);
      }
    }
  }

  // -1: stopped; 0: timed out; 1: events.
  int wait(int timeout_ms) {
    pollfd fds[2] = {{inotify, POLLIN, 0}, {stop[0], POLLIN, 0}};
    for (;;) {
      const int n = ::poll(fds, 2, timeout_ms);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 || (fds[1].revents & (POLLIN | POLLHUP)) != 0) return -1;
      if (n == 0) return 0;
      if ((fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) return -1;
      return 1;
    }
  }

  void run() {
    const int settle = int(kSettle.count());
    for (;;) {
      if (wait(-1) < 0) return;
      if (!read_events()) continue;
      // The rest of the burst, until it has been quiet for kSettle.
      for (int r; (r = wait(settle)) != 0;) {
        if (r < 0) return;
        read_events();
      }
      changed();
    }
  }
};

FileWatch::FileWatch(const std::string& path, std::function<void()> changed) : impl_(std::make_unique<Impl>()) {
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  impl_->name = slash == std::string::npos ? path : path.substr(slash + 1);
  impl_->changed = std::move(changed);
  impl_->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (impl_->inotify < 0) throw std::runtime_error(std::string("cannot watch files: ") + std::strerror(errno));
  constexpr uint32_t kEvents =
      IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
  if (inotify_add_watch(impl_->inotify, folder.c_str(), kEvents) < 0)
    throw std::runtime_error("cannot watch the folder '" + folder + "': " + std::strerror(errno));
  if (::pipe2(impl_->stop, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

FileWatch::~FileWatch() {
  ::close(impl_->stop[1]);  // the thread's poll sees the hang-up
  impl_->stop[1] = -1;
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace voxl::platform
