// voxl-test-portal: an org.freedesktop.portal.Desktop of the tests' own on
// the session bus of $DBUS_SESSION_BUS_ADDRESS, offering ScreenCast and
// RemoteDesktop (portal_service.h) and, once a screen cast starts, a
// PipeWire video source of its picture on the daemon of $XDG_RUNTIME_DIR
// (portal_screen.h).
//
//   voxl-test-portal [--size WxH] [--format BGRx|RGBx|BGRA]
//                    [--no-remote-desktop] [--refuse] [--close-after-start]
//
// Its stdin draws, a command a line, each answered "drawn" (or "bad ..."):
//   fill RRGGBB            the whole picture (it starts 202020)
//   rect X Y W H RRGGBB    a rectangle, clipped to the picture
//   stop                   the user stops sharing: every started session is
//                          closed and its stream destroyed
// Its stdout says, a line each:
//   ready                          the portal's name is owned
//   started <node> <W>x<H>         a Start was granted (node 0 0x0: no screen cast)
//   restore <token>                SelectDevices or SelectSources got a restore_token
//   keysym <keysym> <state>        NotifyKeyboardKeysym
//   keycode <keycode> <state>      NotifyKeyboardKeycode
//   motion <stream> <x> <y>        NotifyPointerMotionAbsolute
//   relmotion <dx> <dy>            NotifyPointerMotion
//   button <evdev code> <state>    NotifyPointerButton
//   axis <axis> <steps>            NotifyPointerAxisDiscrete
//   smoothaxis <dx> <dy>           NotifyPointerAxis
//   closed | dropped               Session.Close was called | its caller left the bus
//   refused | failed | revoked     Start answered 1 (--refuse) | 2 | the session
//                                  was closed after Start (--close-after-start)
// It ends on EOF on stdin, SIGTERM or SIGINT.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <sstream>
#include <string>

#include "portal_dbus.h"
#include "portal_service.h"

namespace portal = voxl::testing::portal;

namespace {

struct Arguments {
  int width = 640, height = 360;
  portal::PixelFormat format = *portal::pixel_format("BGRx");
  portal::PortalBehaviour behaviour;
};

std::optional<Arguments> parse_arguments(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--size" && has_value) {
      char x = 0, extra = 0;
      if (std::sscanf(argv[++i], "%d%c%d%c", &a.width, &x, &a.height, &extra) != 3 || x != 'x' || a.width < 1 ||
          a.height < 1 || a.width > 8192 || a.height > 8192)
        return std::nullopt;
    } else if (arg == "--format" && has_value) {
      const auto format = portal::pixel_format(argv[++i]);
      if (!format) return std::nullopt;
      a.format = *format;
    } else if (arg == "--no-remote-desktop") {
      a.behaviour.remote_desktop = false;
    } else if (arg == "--refuse") {
      a.behaviour.refuse = true;
    } else if (arg == "--close-after-start") {
      a.behaviour.close_after_start = true;
    } else {
      return std::nullopt;
    }
  }
  return a;
}

std::optional<uint32_t> parse_rgb(const std::string& text) {
  if (text.size() != 6 || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return std::nullopt;
  return uint32_t(std::strtoul(text.c_str(), nullptr, 16));
}

// Draws one command line; false when it is not one.
bool draw(const std::string& line, portal::Picture& picture, portal::PortalService& service) {
  std::istringstream in(line);
  std::string verb, colour, rest;
  in >> verb;
  if (verb == "fill") {
    in >> colour;
    const auto rgb = parse_rgb(colour);
    if (!rgb || (in >> rest)) return false;
    service.changed(picture.fill(*rgb));
    return true;
  }
  if (verb == "stop") {
    if (in >> rest) return false;
    service.stop_sharing();
    return true;
  }
  if (verb == "rect") {
    int x = 0, y = 0, w = 0, h = 0;
    if (!(in >> x >> y >> w >> h >> colour)) return false;
    const auto rgb = parse_rgb(colour);
    if (!rgb || w < 0 || h < 0 || (in >> rest)) return false;
    service.changed(picture.rect(x, y, w, h, *rgb));
    return true;
  }
  return false;
}

// The poll timeout (ms) for sd-bus's next deadline, -1 for none.
int bus_timeout(sd_bus* bus) {
  uint64_t at = 0;
  if (sd_bus_get_timeout(bus, &at) < 0 || at == UINT64_MAX) return -1;
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  const uint64_t now_us = uint64_t(now.tv_sec) * 1000000 + uint64_t(now.tv_nsec) / 1000;
  return at <= now_us ? 0 : int(std::min<uint64_t>((at - now_us + 999) / 1000, 60000));
}

// Serves until stdin ends or a signal comes; false when the bus fails.
bool serve(sd_bus* bus, pw_loop* loop, int signals, portal::Picture& picture, portal::PortalService& service) {
  std::string input;
  for (;;) {
    int r;
    while ((r = sd_bus_process(bus, nullptr)) > 0) service.tidy();
    if (r < 0) {
      std::fprintf(stderr, "voxl-test-portal: the bus failed: %s\n", std::strerror(-r));
      return false;
    }
    service.tidy();
    pollfd fds[4] = {{sd_bus_get_fd(bus), short(sd_bus_get_events(bus)), 0},
                     {pw_loop_get_fd(loop), POLLIN, 0},
                     {STDIN_FILENO, POLLIN, 0},
                     {signals, POLLIN, 0}};
    if (poll(fds, 4, bus_timeout(bus)) < 0 && errno != EINTR) return false;
    if (fds[1].revents) {
      pw_loop_iterate(loop, 0);
      service.tidy();
    }
    if (fds[3].revents) return true;
    if (fds[2].revents) {
      char chunk[4096];
      const ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
      if (n <= 0) return true;
      input.append(chunk, size_t(n));
      for (size_t nl; (nl = input.find('\n')) != std::string::npos;) {
        const std::string line = input.substr(0, nl);
        input.erase(0, nl + 1);
        if (draw(line, picture, service)) portal::say("drawn");
        else portal::say("bad %s", line.c_str());
      }
    }
  }
}

sd_bus* connect_bus() {
  const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS");
  if (!address || !*address) {
    std::fprintf(stderr, "voxl-test-portal: DBUS_SESSION_BUS_ADDRESS is not set\n");
    return nullptr;
  }
  sd_bus* bus = nullptr;
  int r = sd_bus_new(&bus);
  if (r >= 0) r = sd_bus_set_address(bus, address);
  if (r >= 0) r = sd_bus_set_bus_client(bus, 1);
  if (r >= 0) r = sd_bus_start(bus);
  if (r < 0) {
    std::fprintf(stderr, "voxl-test-portal: cannot reach the bus: %s\n", std::strerror(-r));
    sd_bus_unref(bus);
    return nullptr;
  }
  return bus;
}

int run(const Arguments& a, int signals) {
  pw_loop* loop = pw_loop_new(nullptr);
  pw_context* context = loop ? pw_context_new(loop, nullptr, 0) : nullptr;
  pw_core* core = context ? pw_context_connect(context, nullptr, 0) : nullptr;
  sd_bus* bus = core ? connect_bus() : nullptr;
  int status = 1;
  if (!core) std::fprintf(stderr, "voxl-test-portal: cannot reach PipeWire: %s\n", std::strerror(errno));
  if (bus) {
    pw_loop_enter(loop);
    try {
      portal::Picture picture(a.width, a.height, a.format);
      portal::PortalService service(bus, core, picture, a.behaviour);
      const int r = sd_bus_request_name(bus, "org.freedesktop.portal.Desktop", 0);
      if (r < 0) {
        std::fprintf(stderr, "voxl-test-portal: cannot own the portal's name: %s\n", std::strerror(-r));
      } else {
        portal::say("ready");
        status = serve(bus, loop, signals, picture, service) ? 0 : 1;
      }
    } catch (const std::exception& x) {
      std::fprintf(stderr, "voxl-test-portal: %s\n", x.what());
    }
    pw_loop_leave(loop);
    sd_bus_flush_close_unref(bus);
  }
  if (core) pw_core_disconnect(core);
  if (context) pw_context_destroy(context);
  if (loop) pw_loop_destroy(loop);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const auto arguments = parse_arguments(argc, argv);
  if (!arguments) {
    std::fprintf(stderr,
                 "usage: voxl-test-portal [--size WxH] [--format BGRx|RGBx|BGRA] [--no-remote-desktop] [--refuse] "
                 "[--close-after-start]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  sigset_t ending;
  sigemptyset(&ending);
  sigaddset(&ending, SIGTERM);
  sigaddset(&ending, SIGINT);
  sigprocmask(SIG_BLOCK, &ending, nullptr);
  const int signals = signalfd(-1, &ending, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signals < 0) return 1;
  pw_init(&argc, &argv);
  const int status = run(*arguments, signals);
  pw_deinit();
  close(signals);
  return status;
}
