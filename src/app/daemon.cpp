#include "app/daemon.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/agent_wiring.h"
#include "app/files_wiring.h"
#include "app/audio_wiring.h"
#include "app/desktop_options.h"
#include "app/guarded_run.h"
#include "app/input_wiring.h"
#include "app/resize_wiring.h"
#include "app/window_rounding_wiring.h"
#include "app/server_wiring.h"
#include "app/sessions_wiring.h"
#include "app/users_wiring.h"
#include "app/version.h"
#include "audit/audit_log.h"
#include "app/video_wiring.h"
#include "input/interaction.h"
#include "platform/console_close.h"
#include "platform/desktop_environment.h"
#include "platform/fd_limits.h"
#include "platform/service_manager.h"

namespace voxl::app {

namespace asio = boost::asio;

namespace {

// Runs what the closed sessions and cancelled waits left on the loop, so
// nothing in it holds a part that is about to go. Bounded by handler, not by
// round: an ending session schedules a handful of handlers, and a chain
// that keeps posting itself must not keep the daemon from exiting.
void drain(asio::io_context& io, const Logger& log) {
  constexpr int kMaxHandlers = 100000;
  io.restart();
  int ran = 0;
  while (ran < kMaxHandlers && io.poll_one() > 0) ++ran;
  if (ran == kMaxHandlers) log->warn("stopping: handlers kept coming after {} of them; not waiting for more", ran);
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
#ifdef SIGHUP
    case SIGHUP:
      return "SIGHUP";
#endif
#ifdef SIGBREAK
    case SIGBREAK:
      return "SIGBREAK";
#endif
    default:
      return "a signal";
  }
}

// --audit-log or --audit-journal: the trail, or null without either.
std::unique_ptr<audit::AuditLog> open_audit_log(const Config& config, const Logger& log) {
  if (config.audit_journal) {
    audit::AuditOptions o;
    o.journal = true;
    auto trail = std::make_unique<audit::AuditLog>(std::move(o), log);
    log->info("audit trail: the journal (journalctl -t voxl-audit -o cat gives the lines voxl audit-verify checks)");
    return trail;
  }
  if (config.audit_log.empty()) return nullptr;
  audit::AuditOptions o;
  o.path = config.audit_log;
  o.rotate_bytes = uint64_t(config.audit_rotate_mb) << 20;
  auto trail = std::make_unique<audit::AuditLog>(std::move(o), log);
  log->info("audit log: {} (rotated past {} MB; voxl audit-verify checks it)", config.audit_log, config.audit_rotate_mb);
  return trail;
}

// Where events go: the audit trail, and the session being recorded. Key
// markers ("key") are for the recording only.
AuditSink event_sink(audit::AuditLog* trail, SessionsWiring& sessions) {
  if (!trail && !sessions.enabled()) return {};
  return [trail, &sessions](std::string event, nlohmann::json fields) {
    if (sessions.enabled()) sessions.note(event, fields);
    if (trail && event != "key") trail->record(std::move(event), std::move(fields));
  };
}

#ifdef SIGHUP
// Each SIGHUP reads the users file again, until the set is cancelled.
void wait_for_reloads(asio::signal_set& reloads, UsersWiring& users) {
  reloads.async_wait([&reloads, &users](const boost::system::error_code& ec, int) {
    if (ec) return;
    users.reload("SIGHUP");
    wait_for_reloads(reloads, users);
  });
}
#endif

}  // namespace

int run_daemon(const Config& config, const Logger& log) {
  // Every viewer, request and recording holds a descriptor or more: take
  // what the system allows before anything is opened.
  const platform::FdLimit fds = platform::raise_fd_limit();
  if (!fds.applicable) log->debug("open-file limit: none on this system");
  else if (!fds.error.empty()) log->warn("cannot raise the open-file limit ({}): it stays at {}", fds.error, fds.soft);
  else log->debug("open-file limit: {} (hard limit {})", fds.soft, fds.hard);

  // Made in the order each needs the ones before, destroyed in reverse: the
  // loop before everything that posts to it or waits on it, the users file
  // before the desktop (a mistake in it costs no display), the desktop
  // before the parts that use it.
  asio::io_context io(1);
  // Before the desktop: an audit log or a users file that cannot be used
  // stops voxl first.
  const std::unique_ptr<audit::AuditLog> trail = open_audit_log(config, log);
  VideoWiring video(config, io, log);
  SessionsWiring sessions(config, io, video.hub(), log);
  const AuditSink audit = event_sink(trail.get(), sessions);
  if (audit) audit("start", nlohmann::json{{"version", kVersion}, {"addr", config.addr}, {"port", config.port}});
  UsersWiring users(config, io, log, audit);
  auto desktop = platform::make_desktop_environment(desktop_options(config), log);
  // The video (made before the desktop, for the recorded sessions) runs
  // the desktop's capturers: stopped before the desktop goes, whichever
  // way this function is left.
  struct StopVideo {
    VideoWiring& video;
    ~StopVideo() { video.stop(); }
  } stop_video{video};
  AudioWiring audio(config, io, *desktop, log);
  InputWiring input(config, io, *desktop, log, audit);
  AgentWiring agents(config, io, *desktop, video.hub(), input.interaction(), log);
  ResizeWiring resize(config, io, *desktop, log);
  WindowRoundingWiring rounding(config, io, *desktop, log);
  FilesWiring files(config, io, log);
  const Oversight oversight{trail.get(), &sessions};
  auto server =
      start_server(config, io, video, audio, input, agents, files, users, resize.controller(), log, audit, oversight);
  auto metrics_server = start_metrics_server(config, io, video, agents, *server, log, oversight);
  asio::signal_set signals(io, SIGINT, SIGTERM);
#ifdef SIGHUP
  // A terminal or ssh session that ends: stop as cleanly (the desktop's
  // size put back, recordings finished). With a users file, SIGHUP reads it
  // again instead, as daemons do.
  asio::signal_set reloads(io);
  if (users.enabled()) {
    reloads.add(SIGHUP);
    wait_for_reloads(reloads, users);
  } else {
    signals.add(SIGHUP);
  }
#endif
#ifdef SIGBREAK
  // Windows: Ctrl+Break; closing the console raises SIGTERM (ConsoleClose).
  signals.add(SIGBREAK);
#endif
  const platform::ConsoleClose console_close;

  // Viewers' and agents' positions follow the picture the stream shows.
  if (input::Interaction* interaction = input.interaction())
    video.set_picture_listener([interaction](Point origin, Size area, std::chrono::steady_clock::time_point at) {
      interaction->set_picture({origin, area}, at);
    });
  int exit_code = 0;
  video.start([&desktop] { return desktop->make_capturer(); }, [&exit_code, &io] {
    exit_code = 1;
    io.stop();
  });
  signals.async_wait([&log, &io](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    log->info("stopping ({})", signal_name(sig));
    io.stop();
  });
  // A generated token is shown in the address, the only place to learn
  // it; a token the user chose stays out of the log.
  log->info("voxl is serving {} (display {}): open it in a browser",
            config.auth_token.empty() ? server->signed_url() : server->url(), desktop->display_name());
  // Never the signed address: a service's status is for every local user.
  platform::notify_service_manager(platform::ServiceState::kReady,
                                   "serving " + server->url() + " (display " + desktop->display_name() + ")");
  // A handler that throws costs its own request, not the daemon.
  if (!run_guarded(io, log)) exit_code = 1;

  platform::notify_service_manager(platform::ServiceState::kStopping);
  // The threads that post to the loop stop first; the server closes every
  // session, and the loop runs what that leaves, so that plain reverse-order
  // destruction follows.
  video.stop();
  audio.stop_capture();
  resize.stop();
  if (metrics_server) metrics_server->stop();
  server->stop();
  signals.cancel();
#ifdef SIGHUP
  reloads.cancel();
#endif
  drain(io, log);
  if (audit) audit("stop", nlohmann::json{{"exit_code", exit_code}});
  return exit_code;
}

}  // namespace voxl::app
