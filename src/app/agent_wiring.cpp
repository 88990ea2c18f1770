#include "app/agent_wiring.h"

#include <chrono>
#include <cstdlib>

#include "app/version.h"
#include "endpoints/a11y_endpoints.h"
#include "endpoints/a11y_service.h"
#include "endpoints/agent_endpoints.h"
#include "endpoints/computer_endpoints.h"
#include "endpoints/computer_use.h"
#include "endpoints/mcp_endpoint.h"
#include "platform/desktop_environment.h"

namespace voxl::app {

AgentWiring::AgentWiring(const Config& config, boost::asio::io_context& io, platform::DesktopEnvironment& desktop,
                         stream::Hub& hub, input::Interaction* interaction, const Logger& log)
    : io_(io), log_(log), interaction_(interaction),
      whole_screen_(!config.capture_region && !config.capture_window) {
  changes_ = std::make_unique<endpoints::ChangeMonitor>(
      io, [&desktop, &io] { return desktop.make_damage_watcher(io); }, log);
  screenshots_ = std::make_unique<endpoints::ScreenshotService>([&desktop] { return desktop.make_capturer(); }, log);
  a11y_ = std::make_unique<endpoints::A11yService>(
      [&desktop](std::string& why) { return desktop.make_accessibility(why); }, log);
  const char* tmp = std::getenv("TMPDIR");
  endpoints::RecordLimits limits;
  limits.max_total_bytes = uint64_t(config.max_record_mb) << 20;
  recordings_ = std::make_unique<endpoints::RecordService>(
      io, hub, std::chrono::seconds(config.max_record_seconds), tmp && *tmp ? tmp : "/tmp", log, limits);
  // Each stripe is an H.264 stream of its own; an MP4 track holds one.
  if (config.stripes > 1)
    recordings_->set_unavailable("recordings need one picture stream: this server codes the screen as " +
                                 std::to_string(config.stripes) +
                                 " stripes (--stripes), which no MP4 holds; start it with --stripes 1 to record");
  recordings_->keep_last(std::chrono::seconds(config.record_buffer_seconds),
                         uint64_t(config.record_buffer_mb) << 20);
  max_wait_ = std::chrono::seconds(config.max_wait_seconds);
}

AgentWiring::~AgentWiring() {
  // Before the services it uses: it releases keys a hold_key still holds.
  computer_.reset();
}

net::EndpointTable AgentWiring::endpoints() {
  const endpoints::AgentServices services{io_, *changes_, *screenshots_, *recordings_, log_, interaction_,
                                          whole_screen_, max_wait_};
  if (!computer_) computer_ = std::make_unique<endpoints::ComputerUse>(services);
  net::EndpointTable table = endpoints::agent_endpoints(services);
  table.merge(endpoints::computer_endpoints(*computer_));
  const endpoints::A11yTools a11y(*a11y_, *computer_);
  table.merge(endpoints::a11y_endpoints(a11y));
  table.merge(endpoints::mcp_endpoints(*computer_, *recordings_, kVersion, a11y));
  return table;
}

void AgentWiring::write_metrics(MetricsText& out) const {
  using T = MetricsText::Type;
  out.family("voxl_recordings", T::kGauge, "Recordings (/record, MCP) running now");
  out.sample("voxl_recordings", double(recordings_->recordings()));
  out.family("voxl_recordings_started_total", T::kCounter, "Recordings begun since start");
  out.sample("voxl_recordings_started_total", double(recordings_->started()));
  out.family("voxl_record_buffer_bytes", T::kGauge,
             "Bytes of stream held for /record?last= (--record-buffer-seconds; 0 when off)");
  out.sample("voxl_record_buffer_bytes", double(recordings_->buffered_bytes()));
  out.family("voxl_waiters", T::kGauge, "/wait requests and computer-use settles waiting on the screen now");
  out.sample("voxl_waiters", double(changes_->waiters()));
  out.family("voxl_screen_changes_total", T::kCounter,
             "Batches of screen damage seen (the seq /wait and X-Voxl-Seq report)");
  out.sample("voxl_screen_changes_total", double(changes_->changes().seq()));
}

}  // namespace voxl::app
