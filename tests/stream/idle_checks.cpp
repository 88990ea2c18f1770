#include "idle_checks.h"

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "proc_stats.h"

namespace voxl::testing {

using namespace std::chrono_literals;

std::string costs_nothing_while_still(uint16_t port, pid_t pid, const std::function<void()>& change) {
  const HttpAnswer settled = http_request(port, {"GET", "/wait?idle=500&timeout=60000", {}}, 90s);
  const auto seq = nlohmann::json::parse(settled.body, nullptr, false).value("seq", uint64_t(0));
  if (settled.status != 200 || seq == 0) return "/wait?idle answered " + std::to_string(settled.status) + ": " + settled.body;
  change();
  constexpr auto kWindow = 2s;
  const double before = cpu_seconds_of(pid);
  // The window the CPU time is counted over, not a wait for a condition.
  std::this_thread::sleep_for(kWindow);
  const double used = cpu_seconds_of(pid) - before;
  if (before < 0 || used < 0) return "voxl's CPU time could not be read";
  const HttpAnswer seen =
      http_request(port, {"GET", "/wait?change&since=" + std::to_string(seq) + "&timeout=30000", {}}, 90s);
  if (!nlohmann::json::parse(seen.body, nullptr, false).value("changed", false))
    return "the change was not seen: " + seen.body;
  if (used < 0.1 * std::chrono::duration<double>(kWindow).count()) return {};
  return "voxl used " + std::to_string(used) + " s of CPU in 2 s while its screen was still";
}

}  // namespace voxl::testing
