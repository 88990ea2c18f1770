#include "app/server_wiring.h"

#include <cstdint>

#include "app/agent_wiring.h"
#include "app/audio_wiring.h"
#include "app/input_wiring.h"
#include "app/video_wiring.h"

namespace voxl::app {

namespace {

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
  o.connections = {size_t(c.max_connections), size_t(c.max_connections_per_address)};
  return o;
}

}  // namespace

std::unique_ptr<net::Server> start_server(const Config& config, boost::asio::io_context& io, VideoWiring& video,
                                          AudioWiring& audio, InputWiring& input, AgentWiring& agents,
                                          const Logger& log) {
  auto options = server_options(config);
  options.audio_hub = audio.hub();
  options.microphone = audio.microphone();
  options.interaction = input.interaction();
  options.stats_json = [&video] { return video.stats_json(); };
  options.endpoints = agents.endpoints();
  return std::make_unique<net::Server>(io, options, video.hub(), log);
}

}  // namespace voxl::app
