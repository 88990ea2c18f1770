// Runs one computer-use action (computer_action.h) from start to answer:
// checks it against the picture the agent sees (scaled or not), plays its
// input through the /input engine, holds keys for hold_key, waits for the
// screen to settle from damage (ChangeMonitor, as /wait does: no sleep),
// then takes the settled screenshot and reads the pointer. POST /computer
// and the MCP tools both go through it.
//
// Threads: the loop thread; `done` runs there, never from inside run().
// Ownership: made and destroyed on the loop, after the services it uses
// and before them; a job still running when it goes is dropped (its held
// keys are released first).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "endpoints/agent_services.h"
#include "endpoints/computer_action.h"
#include "endpoints/picture_scale.h"

namespace voxl::endpoints {

struct ComputerOptions {
  ScaleSpec scale;          // the picture the agent sees; its coordinates
  bool screenshot = false;  // answer with the settled picture
  bool cursor = true;       // with the pointer drawn in
  // Settled: the picture changed within `react` of the action (an
  // application may take a moment to answer it) and then stayed still for
  // `settle_idle`; or nothing changed within `react` (then "changed" is
  // false). Given up after `settle_cap` in all (then "settled" is false).
  // react 0: stillness is counted from the action itself.
  std::chrono::milliseconds react{1000};
  std::chrono::milliseconds settle_idle{300};
  std::chrono::milliseconds settle_cap{10000};
  bool view_only = false;   // the caller may look but not act
  std::string user;         // who signed in, for a refusal ("" the token or a shared password)
};

struct ComputerOutcome {
  int status = 200;         // else an HTTP status, with error and parameter
  std::string error;
  std::string parameter;
  // {"action", "schema", "seq", "changed", "settled", "timed_out",
  //  "waited_ms", "width", "height", "cursor": {"x", "y"}, ...}
  nlohmann::json info;
  std::string png;          // the picture, when one was taken
  Size png_size;
};

// Parses the options every agent call shares from a query string:
// scale/max_width/max_height, screenshot, cursor, react, settle,
// settle_timeout (milliseconds; the most is `max_wait`). What the query does not name
// keeps its value in `out`.
bool parse_computer_options(const net::Query& q, std::chrono::milliseconds max_wait, ComputerOptions& out,
                            net::ParamError& error);

class ComputerUse {
 public:
  using Done = std::function<void(ComputerOutcome)>;
  // At most this many actions run (settle, hold, screenshot) at once.
  static constexpr size_t kMaxJobs = 64;

  explicit ComputerUse(AgentServices services);
  ~ComputerUse();
  ComputerUse(const ComputerUse&) = delete;
  ComputerUse& operator=(const ComputerUse&) = delete;

  // Parses `body` (one action of either schema) and runs it. Returns a
  // canceller for when the client goes away (held keys are still released
  // at the end of their hold); `done` is not called after it.
  std::function<void()> run(std::string_view body, const ComputerOptions& options, Done done);
  // Runs an action already parsed (its positions in the agent's picture,
  // scaled as options.scale says). `before_seq`: the change counter read
  // before the action began, when it began elsewhere (an accessible
  // action the application performs); else read now.
  std::function<void()> run_action(ComputerAction action, const ComputerOptions& options, Done done,
                                   std::optional<uint64_t> before_seq = std::nullopt);

  // The pointer now: {"x", "y"} in the agent's picture (scaled as asked),
  // "in_picture", the desktop position, and the shape ("name", "width",
  // "height", "hot_x", "hot_y", "hidden") when the platform reports one.
  // nullopt with `why` when no desktop input is wired.
  std::optional<nlohmann::json> cursor(const ScaleSpec& scale, std::string& why) const;

  const AgentServices& services() const { return s_; }

 private:
  struct Job;
  void settle(const std::shared_ptr<Job>& job);
  void settle_still(const std::shared_ptr<Job>& job, std::chrono::milliseconds spent);
  void picture(const std::shared_ptr<Job>& job);
  void finish(const std::shared_ptr<Job>& job);
  void fail(const std::shared_ptr<Job>& job, int status, const std::string& parameter, const std::string& error);
  void release_held(Job& job);

  AgentServices s_;
  std::map<uint64_t, std::shared_ptr<Job>> jobs_;
  uint64_t next_id_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::endpoints
