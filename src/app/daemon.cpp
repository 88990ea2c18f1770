#include "app/daemon.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>

#include <cstdlib>
#include <memory>

#include "audio/audio_capture.h"
#include "audio/microphone.h"
#include "audio/pulse_source.h"
#include "base/child_process.h"
#include "capture/x11/virtual_display.h"
#include "capture/x11/x11_capturer.h"
#include "capture/x11/x11_damage_watcher.h"
#include "endpoints/agent_endpoints.h"
#include "input/interaction.h"
#include "input/x11/selection_clipboard.h"
#include "input/x11/xfixes_cursor_source.h"
#include "input/x11/xtest_injector.h"
#include "net/server.h"
#include "stream/audio_hub.h"
#include "stream/hub.h"
#include "stream/stream_stats.h"
#include "stream/video_pipeline.h"

namespace voxl::app {

namespace {

namespace asio = boost::asio;
namespace x11 = capture::x11;

std::unique_ptr<capture::Capturer> make_capturer(const Config& c, const std::string& display,
                                                 const x11::VirtualDisplay* xvfb, const Logger& log) {
  x11::X11CaptureOptions o;
  o.display = display;
  o.log = log;
  if (xvfb) o.framebuffer_shmid = xvfb->framebuffer_shmid();
  if (c.capture_region) {
    o.target = x11::X11CaptureOptions::Target::kRegion;
    o.region = *c.capture_region;
  } else if (c.capture_window) {
    o.target = x11::X11CaptureOptions::Target::kWindow;
    o.window = c.capture_window;
  }
  return std::make_unique<x11::X11Capturer>(o);
}

net::ServerOptions server_options(const Config& c) {
  net::ServerOptions o;
  o.addr = c.addr;
  o.port = uint16_t(c.port);
  o.https = c.https;
  o.cert_file = c.https_cert;
  o.key_file = c.https_key;
  o.access.allowed_origins = c.allowed_origins;
  o.access.basic_auth = c.basic_auth;
  o.access.user = c.basic_auth_user;
  o.access.password = c.basic_auth_password;
  o.access.viewonly_password = c.basic_auth_viewonly_password;
  o.max_fps = c.framerate;
  o.bitrate = {c.min_kbps, c.max_kbps};
  return o;
}

input::InteractionSettings interaction_settings(const Config& c) {
  input::InteractionSettings s;
  s.clipboard_in = c.clipboard == ClipboardMode::kIn || c.clipboard == ClipboardMode::kBoth;
  s.clipboard_out = c.clipboard == ClipboardMode::kOut || c.clipboard == ClipboardMode::kBoth;
  s.scroll_px_per_notch = c.scroll_px_per_notch;
  if (c.capture_region) {
    s.origin_x = c.capture_region->x;
    s.origin_y = c.capture_region->y;
  }
  return s;
}

// Input, cursor and clipboard are each optional: a display without the
// extension they need is still streamed, with a warning.
template <class T, class... Args>
std::unique_ptr<T> optional_part(const Logger& log, const char* what, Args&&... args) {
  try {
    return std::make_unique<T>(std::forward<Args>(args)...);
  } catch (const std::exception& e) {
    log->warn("{} off: {}", what, e.what());
    return nullptr;
  }
}

stream::PipelineSettings pipeline_settings(const Config& c) {
  stream::PipelineSettings s;
  s.encoder.preset = c.preset;
  s.encoder.crf = c.crf;
  s.encoder.threads = c.encoder_threads;
  s.encoder.max_kbps = c.max_kbps;
  s.encoder.fps = c.framerate;
  s.max_fps = c.framerate;
  s.convert_threads = c.convert_threads;
  s.coalesce_us = c.coalesce_us;
  s.paintover_crf = c.paintover_crf;
  s.paintover_burst = c.paintover_burst;
  s.paintover_delay_ms = c.paintover_delay_ms;
  return s;
}

}  // namespace

int run_daemon(const Config& config, const Logger& log) {
  std::unique_ptr<x11::VirtualDisplay> xvfb;
  std::string display = config.display;
  const char* env_display = std::getenv("DISPLAY");
  if (config.xvfb || (display.empty() && (!env_display || !*env_display))) {
    x11::VirtualDisplayOptions vo;
    if (config.xvfb) vo.size = *config.xvfb;
    xvfb = std::make_unique<x11::VirtualDisplay>(vo);
    display = xvfb->name();
    log->info("started a private Xvfb on {} ({}x{})", display, vo.size.width, vo.size.height);
  }
  std::unique_ptr<ChildProcess> program;
  if (!config.exec.empty()) {
    ChildOptions co;
    co.argv = {"/bin/sh", "-c", config.exec};
    co.env = {"DISPLAY=" + display};
    co.quiet = false;
    program = std::make_unique<ChildProcess>(co);
    log->info("started `{}` on {} (pid {})", config.exec, display, program->pid());
  }

  // Torn down in this order at the end: the pipeline thread (which posts to
  // the loop), the server, the loop with every session in it (sessions
  // leave the hub), then the hub.
  auto io = std::make_unique<asio::io_context>(1);
  stream::StreamStats stats;
  std::unique_ptr<stream::VideoPipeline> pipeline;
  stream::Hub hub({[&pipeline](bool on) { if (pipeline) pipeline->set_active(on); },
                   [&pipeline] { if (pipeline) pipeline->request_keyframe(); },
                   [&pipeline](bool paused) { if (pipeline) pipeline->set_paused(paused); },
                   [&pipeline](int kbps) { if (pipeline) pipeline->set_max_kbps(kbps); }});
  hub.set_bitrate_limits({config.min_kbps, config.max_kbps});
  int exit_code = 0;

  // Desktop sound: captured while the audio hub has listeners, posted to
  // the loop like video frames.
  std::unique_ptr<audio::AudioCapture> audio_capture;
  stream::AudioHub audio_hub([&audio_capture](bool on) { if (audio_capture) audio_capture->set_active(on); });
  if (config.audio) {
    audio_capture = std::make_unique<audio::AudioCapture>(
        [device = config.audio_device](std::string& error) { return audio::open_pulse_source(device, error); },
        audio::AudioCaptureSettings{"PulseAudio source " + audio::pulse_device_name(config.audio_device),
                                    config.audio_bitrate},
        log, [&io = *io, &audio_hub](audio::AudioPacketPtr p) {
          asio::post(io, [&audio_hub, p = std::move(p)] { audio_hub.publish(p); });
        });
  }

  std::unique_ptr<audio::Microphone> microphone;
  if (config.microphone) microphone = std::make_unique<audio::Microphone>(config.microphone_fifo, log);

  auto options = server_options(config);
  if (config.audio) options.audio_hub = &audio_hub;
  options.microphone = microphone.get();

  // The injector outlives the loop (sessions release their keys as they
  // end); the cursor source watches the loop and goes before it.
  auto injector = optional_part<input::x11::XTestInjector>(log, "input", display, log);
  auto cursor = optional_part<input::x11::XFixesCursorSource>(log, "cursor shapes", *io, display, log);
  std::unique_ptr<input::x11::SelectionClipboard> clipboard;
  if (config.clipboard != ClipboardMode::kOff)
    clipboard = optional_part<input::x11::SelectionClipboard>(
        log, "clipboard", *io, display, log, input::kMaxClipboardBytes, config.clipboard != ClipboardMode::kIn);
  auto interaction = std::make_unique<input::Interaction>(injector.get(), clipboard.get(), cursor.get(),
                                                          interaction_settings(config), log);

  options.interaction = interaction.get();
  options.stats_json = [&stats] { return stats.json(std::chrono::steady_clock::now()); };
  // Agent endpoints: destroyed before the loop, after the server.
  auto changes = std::make_unique<endpoints::ChangeMonitor>(
      *io, std::make_unique<x11::X11DamageWatcher>(display), log);
  auto screenshots = std::make_unique<endpoints::ScreenshotService>(
      [&config, display, &xvfb, log] { return make_capturer(config, display, xvfb.get(), log); }, log);
  const char* tmp = std::getenv("TMPDIR");
  auto recordings = std::make_unique<endpoints::RecordService>(
      *io, hub, std::chrono::seconds(config.max_record_seconds), tmp && *tmp ? tmp : "/tmp", log);
  options.endpoints = endpoints::agent_endpoints({*io, *changes, *screenshots, *recordings, log, interaction.get()});
  auto server = std::make_unique<net::Server>(*io, options, hub, log);

  pipeline = std::make_unique<stream::VideoPipeline>(
      make_capturer(config, display, xvfb.get(), log), pipeline_settings(config), log,
      [&io = *io, &hub, &stats](encode::EncodedFramePtr f) {
        asio::post(io, [&hub, &stats, f = std::move(f)] {
          stats.add(*f, std::chrono::steady_clock::now());
          hub.publish(f);
        });
      },
      [&io = *io, &exit_code](const std::string&) {
        asio::post(io, [&io, &exit_code] {
          exit_code = 1;
          io.stop();
        });
      });

  auto signals = std::make_unique<asio::signal_set>(*io, SIGINT, SIGTERM);
  signals->async_wait([&](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    log->info("stopping ({})", sig == SIGINT ? "SIGINT" : "SIGTERM");
    io->stop();
  });
  log->info("voxl is serving {} (display {}): open it in a browser", server->url(), display);
  io->run();

  pipeline.reset();
  audio_capture.reset();
  server.reset();
  signals.reset();
  recordings.reset();
  screenshots.reset();
  changes.reset();
  interaction->detach();
  clipboard.reset();
  cursor.reset();
  io.reset();
  microphone.reset();  // after the sessions that feed it
  interaction.reset();
  injector.reset();
  program.reset();
  return exit_code;
}

}  // namespace voxl::app
