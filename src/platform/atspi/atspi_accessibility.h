// platform::Accessibility over AT-SPI 2, spoken through sd-bus directly:
// every question to every node of a level in flight at once (libatspi asks
// one at a time and brings GLib's loop), on libsystemd, which voxl links
// already. See platform/accessibility.h for threads and ownership.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "platform/accessibility.h"
#include "platform/atspi/app_cache.h"
#include "platform/atspi/atspi_connection.h"
#include "platform/atspi/call_batch.h"

namespace voxl::platform::atspi {

class AtspiAccessibility final : public Accessibility {
 public:
  explicit AtspiAccessibility(AtspiConnection::RootProperty root_property);

  A11ySnapshot snapshot(const A11yScope& scope, const A11yLimits& limits) override;
  std::optional<A11yNode> describe(const std::string& ref, A11yDeadline deadline) override;
  A11yActed act(const std::string& ref, A11yAction action, const std::string& text, A11yDeadline deadline) override;

 private:
  // Elements read from an application's cache at most.
  static constexpr size_t kMaxCached = 200000;

  // The applications' toolkits and caches, asked for within a third of
  // the time left.
  AppFacts facts(const std::vector<BusObject>& apps, A11yDeadline deadline);
  // The applications on the bus (the registry's children).
  std::vector<BusObject> applications(A11yDeadline deadline, A11ySnapshot& out);
  // Runs the batch; false when the deadline passed with calls unanswered,
  // and then the connection is dropped (their replies may still come).
  bool run(CallBatch& batch);
  // The same, noting in `out` what was cut and who did not answer.
  void finish(CallBatch& batch, A11ySnapshot& out);

  AtspiConnection connection_;
};

}  // namespace voxl::platform::atspi
