#include "viewer_checks.h"

#include <iostream>

#include "http_client.h"
#include "proc_stats.h"

namespace voxl::testing {

using Clock = std::chrono::steady_clock;

size_t frames_within(StreamClient& client, std::chrono::milliseconds window) {
  const size_t before = client.frames().size();
  const auto end = Clock::now() + window;
  while (Clock::now() < end && !client.closed())
    client.read_one(std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()));
  return client.frames().size() - before;
}

::testing::AssertionResult still_serving(const VoxlProcess& voxl, const std::string& authorization) {
  if (!process_alive(voxl.pid())) return ::testing::AssertionFailure() << "voxl is not running any more";
  if (const std::string crash = crash_reports_in(voxl.log()); !crash.empty())
    return ::testing::AssertionFailure() << "voxl's log reports a crash:\n" << crash;
  try {
    HttpRequest request{"GET", "/screenshot", {}};
    if (!authorization.empty()) request.headers.emplace_back("Authorization", authorization);
    const HttpAnswer shot = http_request(voxl.port(), request, std::chrono::seconds(60));
    if (shot.status != 200) return ::testing::AssertionFailure() << "GET /screenshot: " << shot.status << " " << shot.body;
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << e.what();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult receives_frames(StreamClient& client, size_t at_least, std::chrono::milliseconds window,
                                           const std::string& label) {
  const size_t n = frames_within(client, window);
  std::cout << label << ": " << n << " frames in " << double(window.count()) / 1000 << " s" << std::endl;
  if (n >= at_least && !client.closed()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << label << ": " << n << " frames in " << window.count()
                                       << " ms, expected at least " << at_least << "; client: " << client.status();
}

}  // namespace voxl::testing
