#include "app/daemon.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <memory>

#include "app/agent_wiring.h"
#include "app/audio_wiring.h"
#include "app/desktop_wiring.h"
#include "app/guarded_run.h"
#include "app/input_wiring.h"
#include "app/server_wiring.h"
#include "app/video_wiring.h"
#include "base/fd_limits.h"

namespace voxl::app {

namespace asio = boost::asio;

int run_daemon(const Config& config, const Logger& log) {
  // Every viewer, request and recording holds a descriptor or more: take
  // what the system allows before anything is opened.
  const FdLimit fds = raise_fd_limit();
  if (!fds.error.empty()) log->warn("cannot raise the open-file limit ({}): it stays at {}", fds.error, fds.soft);
  else log->debug("open-file limit: {} (hard limit {})", fds.soft, fds.hard);
  DesktopWiring desktop(config, log);
  // The loop goes in the middle of the teardown below: after everything
  // that posts to it or watches it, before what its sessions hold on to.
  auto io = std::make_unique<asio::io_context>(1);
  VideoWiring video(config, *io, log);
  AudioWiring audio(config, *io, log);
  InputWiring input(config, *io, desktop.display(), log);
  auto agents = std::make_unique<AgentWiring>(config, *io, desktop, video.hub(), input.interaction(), log);
  auto server = start_server(config, *io, video, audio, input, *agents, log);

  int exit_code = 0;
  video.start(desktop.make_capturer(), [&exit_code, &io = *io] {
    exit_code = 1;
    io.stop();
  });
  auto signals = std::make_unique<asio::signal_set>(*io, SIGINT, SIGTERM);
  signals->async_wait([&log, &io = *io](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    log->info("stopping ({})", sig == SIGINT ? "SIGINT" : "SIGTERM");
    io.stop();
  });
  // A generated token is shown in the address, the only place to learn
  // it; a token the user chose stays out of the log.
  log->info("voxl is serving {} (display {}): open it in a browser",
            config.auth_token.empty() ? server->signed_url() : server->url(), desktop.display());
  // A handler that throws costs its own request, not the daemon.
  if (!run_guarded(*io, log)) exit_code = 1;

  // Threads that post to the loop first, then the server and the agent
  // services, then the X connections the loop watches, then the loop with
  // every session in it. What the sessions held (the interaction and the
  // injector, the microphone, the hubs) and the desktop go at the end of
  // the scope, in reverse order of construction.
  video.stop();
  audio.stop_capture();
  server.reset();
  signals.reset();
  agents.reset();
  input.detach_from_loop();
  io.reset();
  return exit_code;
}

}  // namespace voxl::app
