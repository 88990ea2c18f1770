#include "app/server_wiring.h"

#include <chrono>
#include <cstdint>

#include "app/access_wiring.h"
#include "app/agent_wiring.h"
#include "app/audio_wiring.h"
#include "app/files_wiring.h"
#include "app/host_names.h"
#include "app/version.h"
#include "app/input_wiring.h"
#include "app/users_wiring.h"
#include "app/video_wiring.h"
#include "app/sessions_wiring.h"
#include "audit/audit_log.h"

namespace voxl::app {

namespace {

net::ServerOptions server_options(const Config& c) {
  net::ServerOptions o;
  o.addr = c.addr;
  o.port = uint16_t(c.port);
  o.https = c.https;
  o.cert_file = c.https_cert;
  o.key_file = c.https_key;
  o.viewers.max_fps = c.framerate;
  o.viewers.motion = c.motion;
  o.viewers.stripes = c.stripes;
  o.viewers.bitrate = {c.min_kbps, c.max_kbps};
  o.connections = {size_t(c.max_connections), size_t(c.max_connections_per_address)};
  o.settings.trusted_proxies = c.trusted_proxies;
  o.settings.proxy_user_header = c.proxy_user_header;
  o.tcp_congestion = c.tcp_congestion.value_or("bbr");
  o.tcp_congestion_asked = c.tcp_congestion.has_value();
  return o;
}

// What /metrics says of the application: the build, the encoders, the
// agents' recordings and waits.
void write_app_metrics(MetricsText& m, const VideoWiring& video, const AgentWiring& agents,
                       const Oversight& oversight) {
  m.family("voxl_build_info", MetricsText::Type::kGauge, "Always 1; the version in a label");
  m.sample("voxl_build_info", {{"version", kVersion}}, 1);
  video.write_metrics(m);
  agents.write_metrics(m);
  if (oversight.trail) oversight.trail->write_metrics(m);
  if (oversight.sessions) oversight.sessions->write_metrics(m);
}

}  // namespace

std::unique_ptr<net::Server> start_server(const Config& config, boost::asio::io_context& io, VideoWiring& video,
                                          AudioWiring& audio, InputWiring& input, AgentWiring& agents,
                                          FilesWiring& files, UsersWiring& users, stream::ResizeController* resize,
                                          const Logger& log, const AuditSink& audit,
                                          const Oversight& oversight) {
  auto options = server_options(config);
  AccessPlan access = plan_access(config, machine_host_names(), random_access_token);
  for (const std::string& w : access.warnings) log->warn("{}", w);
  if (access.generated_token)
    log->info("listening beyond loopback without --enable-basic-auth: an access token made for this run guards "
              "every path; open the address below once (it sets a cookie), or send Authorization: Bearer <token>; "
              "--auth-token-file fixes the token, --insecure-no-auth turns it off");
  options.settings.access = std::move(access.settings);
  options.viewers.audio_hub = audio.hub();
  options.viewers.microphone = audio.microphone();
  options.viewers.interaction = input.interaction();
  options.viewers.resize = resize;
  options.viewers.stream_figures = [&video] { return video.figures(); };
  options.settings.metrics = [&video, &agents, oversight](MetricsText& m) {
    write_app_metrics(m, video, agents, oversight);
  };
  options.settings.not_ready = [&video] { return video.not_ready(); };
  options.settings.endpoints = agents.endpoints();
  options.settings.endpoints.merge(files.endpoints());
  if (oversight.sessions) options.settings.endpoints.merge(oversight.sessions->endpoints());
  options.viewers.files = files.offered();
  options.settings.pace_transfers = config.pace_transfers;
  options.sign_ins = users.sign_ins();
  options.settings.audit = audit;
  options.viewers.audit = audit;
  return std::make_unique<net::Server>(io, options, video.hub(), log);
}

std::unique_ptr<net::Server> start_metrics_server(const Config& config, boost::asio::io_context& io,
                                                  VideoWiring& video, AgentWiring& agents, const net::Server& main,
                                                  const Logger& log, const Oversight& oversight) {
  if (!config.metrics_addr) return nullptr;
  net::ServerOptions o;
  o.addr = config.metrics_addr->addr;
  o.port = uint16_t(config.metrics_addr->port);
  o.settings.metrics_only = true;
  o.tcp_congestion = "system";  // a scrape is a few KiB
  o.connections = {size_t(config.max_connections), size_t(config.max_connections_per_address)};
  o.settings.metrics = [&video, &agents, &main, oversight](MetricsText& m) {
    write_app_metrics(m, video, agents, oversight);
    main.write_metrics(m);
  };
  o.settings.not_ready = [&video] { return video.not_ready(); };
  auto server = std::make_unique<net::Server>(io, o, video.hub(), log);
  log->info("metrics: {}metrics without credentials (--metrics-addr)", server->url());
  return server;
}

}  // namespace voxl::app
