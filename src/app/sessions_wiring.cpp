#include "app/sessions_wiring.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "platform/file_jail.h"
#include "platform/private_dir.h"
#include "sessions/session_recorder.h"
#include "sessions/sessions_service.h"

namespace voxl::app {

namespace {

// The folder, made private to this user when missing; refused when others
// may enter it, since what it holds is everything the desktop showed.
std::shared_ptr<platform::FileJail> open_folder(const std::string& dir) {
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::absolute(dir, ec);
  if (ec) throw std::runtime_error("--record-sessions " + dir + ": " + ec.message());
  if (!std::filesystem::exists(path, ec)) {
    std::filesystem::create_directories(path, ec);
    if (ec) throw std::runtime_error("--record-sessions " + dir + ": cannot make the folder: " + ec.message());
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
  }
  if (const std::string problem = platform::private_dir_problem(path.string()); !problem.empty())
    throw std::runtime_error("--record-sessions " + dir + ": the folder must be private to voxl's user: " + problem);
  std::string error;
  std::unique_ptr<platform::FileJail> jail = platform::FileJail::open(path.string(), error);
  if (!jail) throw std::runtime_error("--record-sessions " + dir + ": " + error);
  return std::shared_ptr<platform::FileJail>(std::move(jail));
}

}  // namespace

SessionsWiring::SessionsWiring(const Config& config, boost::asio::io_context& io, stream::Hub& hub,
                               const Logger& log) {
  if (config.record_sessions.empty()) return;
  const std::shared_ptr<const platform::FileJail> jail = open_folder(config.record_sessions);
  sessions::SessionOptions o;
  o.retention.max_age_ms = int64_t(config.record_sessions_days) * 86400 * 1000;
  o.retention.max_bytes = uint64_t(config.record_sessions_max_gb) << 30;
  o.min_free_bytes = uint64_t(config.record_sessions_min_free_mb) << 20;
  o.segment_length = std::chrono::seconds(config.record_sessions_segment_seconds);
  recorder_ = std::make_unique<sessions::SessionRecorder>(io, hub, jail, std::move(o), log);
  service_ = std::make_unique<sessions::SessionsService>(
      io, jail, [r = recorder_.get()] { return r->live(); }, log);
  log->info("recording sessions in {} (kept {}{}); admins play them at sessions.html", jail->root(),
            config.record_sessions_days ? std::to_string(config.record_sessions_days) + " days" : "for good",
            config.record_sessions_max_gb ? ", at most " + std::to_string(config.record_sessions_max_gb) + " GB"
                                          : std::string());
}

SessionsWiring::~SessionsWiring() {
  service_.reset();
  recorder_.reset();
}

void SessionsWiring::note(std::string event, nlohmann::json fields) {
  if (recorder_) recorder_->note(std::move(event), std::move(fields));
}

net::EndpointTable SessionsWiring::endpoints() { return service_ ? service_->endpoints() : net::EndpointTable{}; }

void SessionsWiring::write_metrics(MetricsText& out) const {
  if (recorder_) recorder_->write_metrics(out);
}

}  // namespace voxl::app
