#include "app/window_rounding_wiring.h"

#include <string>

#include "platform/desktop_environment.h"

namespace voxl::app {

WindowRoundingWiring::WindowRoundingWiring(const Config& config, boost::asio::io_context& io,
                                           platform::DesktopEnvironment& desktop, const Logger& log) {
  platform::WindowRoundingOptions options;
  options.radius = config.round_corners;
  for (const auto& r : config.round_windows) options.by_title.push_back({r.title, r.radius});
  if (!options.any()) return;
  std::string why;
  rounder_ = desktop.make_window_rounder(io, options, why);
  if (!rounder_) log->warn("windows keep square corners: {}", why);
}

WindowRoundingWiring::~WindowRoundingWiring() = default;

}  // namespace voxl::app
