#include "portal_rig.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <pipewire/extensions/metadata.h>
#include <pipewire/pipewire.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace voxl::testing {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kStartLimit{30};

int ms_until(Clock::time_point deadline, std::chrono::milliseconds at_most) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return int(std::clamp(left, std::chrono::milliseconds(0), at_most).count());
}

// A socket connected to the Unix socket at `path`; invalid when nothing
// listens there yet.
platform::OwnedFile connect_to(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) throw std::runtime_error("socket path too long: " + path);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  platform::OwnedFile fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  if (connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) return {};
  return fd;
}

// The first line written to `fd` (without its newline); empty at its end
// or at the deadline.
std::string read_line(int fd, Clock::time_point deadline) {
  std::string got;
  while (got.find('\n') == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    const int waited = poll(&p, 1, ms_until(deadline, kStartLimit));
    if (waited < 0 && errno == EINTR) continue;
    if (waited <= 0) return {};
    char buf[512];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return {};
    got.append(buf, size_t(n));
  }
  return got.substr(0, got.find('\n'));
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

// Watches the registry of the PipeWire daemon behind `socket` for the
// session manager's "default" metadata (WirePlumber publishes it once its
// scripts run). The test process's own PipeWire client, on its own loop.
class SessionManagerWatch {
 public:
  explicit SessionManagerWatch(platform::OwnedFile socket) {
    pw_init(nullptr, nullptr);
    loop_ = pw_loop_new(nullptr);
    context_ = loop_ ? pw_context_new(loop_, nullptr, 0) : nullptr;
    core_ = context_ ? pw_context_connect_fd(context_, socket.release(), nullptr, 0) : nullptr;
    if (!core_) throw std::runtime_error(std::string("cannot connect to PipeWire: ") + std::strerror(errno));
    registry_ = pw_core_get_registry(core_, PW_VERSION_REGISTRY, 0);
    events_.version = PW_VERSION_REGISTRY_EVENTS;
    events_.global = &SessionManagerWatch::on_global;
    // A macro of PipeWire's, with C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
    pw_registry_add_listener(registry_, &listener_, &events_, this);
#pragma GCC diagnostic pop
  }
  ~SessionManagerWatch() {
    if (registry_) {
      spa_hook_remove(&listener_);
      pw_proxy_destroy(reinterpret_cast<pw_proxy*>(registry_));
    }
    if (core_) pw_core_disconnect(core_);
    if (context_) pw_context_destroy(context_);
    if (loop_) pw_loop_destroy(loop_);
  }
  SessionManagerWatch(const SessionManagerWatch&) = delete;
  SessionManagerWatch& operator=(const SessionManagerWatch&) = delete;

  // Runs the loop until the metadata shows, `deadline` passes or `gone`
  // says the session manager ended; whether it showed.
  template <typename Gone>
  bool wait(Clock::time_point deadline, Gone gone) {
    pw_loop_enter(loop_);
    while (!found_ && Clock::now() < deadline && !gone())
      pw_loop_iterate(loop_, ms_until(deadline, std::chrono::milliseconds(200)));
    pw_loop_leave(loop_);
    return found_;
  }

 private:
  static void on_global(void* self, uint32_t, uint32_t, const char* type, uint32_t, const spa_dict* props) {
    if (std::strcmp(type, PW_TYPE_INTERFACE_Metadata) != 0 || !props) return;
    const char* name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
    if (name && std::strcmp(name, "default") == 0) static_cast<SessionManagerWatch*>(self)->found_ = true;
  }

  pw_loop* loop_ = nullptr;
  pw_context* context_ = nullptr;
  pw_core* core_ = nullptr;
  pw_registry* registry_ = nullptr;
  spa_hook listener_{};
  pw_registry_events events_{};
  bool found_ = false;
};

}  // namespace

PortalRig::Folder::Folder() {
  char name[] = "/tmp/voxl-portal-XXXXXX";  // mkdtemp: mode 0700
  if (!mkdtemp(name)) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  path = name;
}

PortalRig::Folder::~Folder() {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

PortalRig::PortalRig() {
  start_bus();
  start_pipewire();
  start_wireplumber();
}

PortalRig::~PortalRig() {
  // The session manager first, then the daemon it manages, then the bus;
  // the folder goes after them (a member declared first).
  wireplumber_.reset();
  pipewire_.reset();
  bus_.reset();
}

std::vector<std::string> PortalRig::environment() const {
  return {"XDG_RUNTIME_DIR=" + folder_.path, "PIPEWIRE_RUNTIME_DIR=" + folder_.path,
          "DBUS_SESSION_BUS_ADDRESS=" + bus_address_};
}

std::vector<std::string> PortalRig::daemon_environment() const {
  std::vector<std::string> env = environment();
  // No configuration or state of the user's: WirePlumber would otherwise
  // keep what it restores under ~/.local/state.
  for (const char* sub : {"config", "state", "data"}) std::filesystem::create_directories(folder_.path + "/" + sub);
  env.push_back("XDG_CONFIG_HOME=" + folder_.path + "/config");
  env.push_back("XDG_STATE_HOME=" + folder_.path + "/state");
  env.push_back("XDG_DATA_HOME=" + folder_.path + "/data");
  env.push_back("HOME=" + folder_.path);
  env.push_back("PIPEWIRE_REMOTE=pipewire-0");
  return env;
}

std::unique_ptr<platform::ChildProcess> PortalRig::start_logged(std::vector<std::string> argv,
                                                                  const std::string& log) {
  const std::string path = folder_.path + "/" + log;
  platform::OwnedFile out(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (!out.valid()) throw std::runtime_error("cannot create " + path);
  platform::ChildOptions o;
  o.argv = std::move(argv);
  o.env = daemon_environment();
  o.fds = {{1, out.get()}, {2, out.get()}};
  return std::make_unique<platform::ChildProcess>(o);
}

std::string PortalRig::log_tail(const std::string& log) const {
  std::ifstream in(folder_.path + "/" + log);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  return text.size() > 2000 ? "..." + text.substr(text.size() - 2000) : text;
}

void PortalRig::start_bus() {
  const std::string config = folder_.path + "/bus.conf";
  write_file(config,
             "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
             " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
             "<busconfig>\n"
             "  <type>session</type>\n"
             "  <listen>unix:path=" + folder_.path + "/bus</listen>\n"
             "  <auth>EXTERNAL</auth>\n"
             "  <policy context=\"default\">\n"
             "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
             "    <allow eavesdrop=\"true\"/>\n"
             "    <allow own=\"*\"/>\n"
             "  </policy>\n"
             "</busconfig>\n");
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  platform::OwnedFile address_in(ends[0]), address_out(ends[1]);
  const std::string log = folder_.path + "/dbus.log";
  platform::OwnedFile err(open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  platform::ChildOptions o;
  // A bus of its own configuration: no service activation, nothing of
  // the machine's session bus.
  o.argv = {"dbus-daemon", "--config-file=" + config, "--nofork", "--nopidfile", "--print-address=3"};
  o.fds = {{2, err.get()}, {3, address_out.get()}};
  bus_ = std::make_unique<platform::ChildProcess>(o);
  address_out.reset();  // the daemon holds the only writer: its end is our EOF
  bus_address_ = read_line(address_in.get(), Clock::now() + kStartLimit);
  if (bus_address_.empty())
    throw std::runtime_error("dbus-daemon did not print its address within 30 s: " + log_tail("dbus.log"));
}

void PortalRig::start_pipewire() {
  const std::string socket = folder_.path + "/pipewire-0";
  platform::OwnedFile watch(inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  if (!watch.valid() || inotify_add_watch(watch.get(), folder_.path.c_str(), IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0)
    throw std::runtime_error(std::string("inotify: ") + std::strerror(errno));
  pipewire_ = start_logged({"pipewire"}, "pipewire.log");
  const auto deadline = Clock::now() + kStartLimit;
  // Until the socket takes a connection: each change in the folder is a
  // moment to try, and between a socket's bind and its listen there is no
  // further change to wake us, so a try is also made every 50 ms.
  while (!connect_to(socket).valid()) {
    if (pipewire_->exited()) throw std::runtime_error("pipewire exited: " + log_tail("pipewire.log"));
    if (Clock::now() >= deadline)
      throw std::runtime_error("pipewire did not listen on " + socket + " within 30 s: " + log_tail("pipewire.log"));
    pollfd p{watch.get(), POLLIN, 0};
    if (poll(&p, 1, ms_until(deadline, std::chrono::milliseconds(50))) > 0) {
      char events[4096];
      while (read(watch.get(), events, sizeof events) > 0) {
      }
    }
  }
}

void PortalRig::start_wireplumber() {
  wireplumber_ = start_logged({"wireplumber"}, "wireplumber.log");
  SessionManagerWatch watch(connect_to(folder_.path + "/pipewire-0"));
  bool ended = false;
  const bool ready = watch.wait(Clock::now() + kStartLimit, [&] { return ended = wireplumber_->exited(); });
  if (ended) throw std::runtime_error("wireplumber exited: " + log_tail("wireplumber.log"));
  if (!ready)
    throw std::runtime_error("wireplumber did not publish its metadata within 30 s: " + log_tail("wireplumber.log"));
}

TestPortal::TestPortal(const PortalRig& rig, std::vector<std::string> args) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  platform::OwnedFile in_read(in[0]);
  to_portal_ = platform::OwnedFile(in[1]);
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  platform::OwnedFile out_write(out[1]);
  from_portal_ = platform::OwnedFile(out[0]);
  platform::ChildOptions o;
  o.argv = {VOXL_TEST_PORTAL};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = rig.environment();
  o.fds = {{0, in_read.get()}, {1, out_write.get()}};
  o.quiet = false;  // its stderr is the test's
  process_ = std::make_unique<platform::ChildProcess>(o);
  out_write.reset();  // the portal holds the only writer: its end is our EOF
  reader_ = std::thread([this] { read_output(); });
  if (next_line("ready", std::chrono::seconds(30)).empty()) {
    stop();
    throw std::runtime_error("voxl-test-portal did not say it was ready within 30 s");
  }
}

TestPortal::~TestPortal() { stop(); }

void TestPortal::stop() {
  to_portal_.reset();  // its stdin ends: it ends, and so does its stdout
  {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(10), [this] { return ended_; });
  }
  if (process_) process_->exited();  // reaped if it has ended
  process_.reset();                   // else stopped
  if (reader_.joinable()) reader_.join();
}

void TestPortal::read_output() {
  std::string partial;
  for (;;) {
    char buf[4096];
    const ssize_t n = read(from_portal_.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    partial.append(buf, size_t(n));
    std::lock_guard lock(mutex_);
    for (size_t nl; (nl = partial.find('\n')) != std::string::npos;) {
      lines_.push_back(partial.substr(0, nl));
      partial.erase(0, nl + 1);
    }
    changed_.notify_all();
  }
  std::lock_guard lock(mutex_);
  ended_ = true;
  changed_.notify_all();
}

void TestPortal::draw(const std::string& command) {
  const std::string line = command + "\n";
  if (write(to_portal_.get(), line.data(), line.size()) != ssize_t(line.size()))
    throw std::runtime_error("cannot write to voxl-test-portal");
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  std::unique_lock lock(mutex_);
  for (;;) {
    // Its answer, leaving the lines before it for next_line().
    for (auto it = lines_.begin(); it != lines_.end(); ++it) {
      const bool drawn = it->rfind("drawn", 0) == 0;
      if (!drawn && it->rfind("bad", 0) != 0) continue;
      lines_.erase(it);
      if (!drawn) throw std::runtime_error("voxl-test-portal refused '" + command + "'");
      return;
    }
    if (ended_ || changed_.wait_until(lock, deadline) == std::cv_status::timeout)
      throw std::runtime_error("voxl-test-portal did not draw '" + command + "'");
  }
}

std::string TestPortal::next_line(const std::string& prefix, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  std::unique_lock lock(mutex_);
  for (;;) {
    while (!lines_.empty()) {
      std::string line = std::move(lines_.front());
      lines_.pop_front();
      if (line.rfind(prefix, 0) == 0) return line;
    }
    if (ended_ || changed_.wait_until(lock, deadline) == std::cv_status::timeout) return {};
  }
}

}  // namespace voxl::testing
