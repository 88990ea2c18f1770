#include "endpoints/computer_use.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <utility>

namespace voxl::endpoints {

namespace asio = boost::asio;
using json = nlohmann::json;

struct ComputerUse::Job {
  uint64_t id = 0;
  ComputerAction action;
  ComputerOptions options;
  Done done;
  input::PictureMapping picture;
  Scaling scaling;  // the picture <-> what the agent sees
  uint64_t before_seq = 0;
  std::vector<uint32_t> held;  // hold_key's keys, pressed, to release
  std::unique_ptr<asio::steady_timer> timer;
  uint64_t wait_id = 0;
  std::optional<WaitOutcome> settled;
  std::shared_ptr<bool> shot_cancelled;
  ComputerOutcome out;
  bool cancelled = false;
};

bool parse_computer_options(const net::Query& q, std::chrono::milliseconds max_wait, ComputerOptions& out,
                            net::ParamError& error) {
  if (!parse_scale(q, out.scale, error) || !q.flag("screenshot", out.screenshot, error) ||
      !q.flag("cursor", out.cursor, error))
    return false;
  int64_t idle = out.settle_idle.count(), cap = out.settle_cap.count(), react = out.react.count();
  if (!q.integer("settle", 0, max_wait.count(), idle, error) || !q.integer("react", 0, max_wait.count(), react, error) ||
      !q.integer("settle_timeout", 1, max_wait.count(), cap, error)) {
    error.message += " (milliseconds; the most is --max-wait-seconds=" +
                     std::to_string(std::chrono::duration_cast<std::chrono::seconds>(max_wait).count()) + ")";
    return false;
  }
  out.settle_idle = std::chrono::milliseconds(idle);
  out.settle_cap = std::chrono::milliseconds(cap);
  out.react = std::chrono::milliseconds(react);
  return true;
}

ComputerUse::ComputerUse(AgentServices services) : s_(std::move(services)) {}

ComputerUse::~ComputerUse() {
  *alive_ = false;
  for (auto& [id, job] : jobs_) {
    release_held(*job);
    if (job->wait_id) s_.changes.cancel(job->wait_id);
    if (job->shot_cancelled) *job->shot_cancelled = true;
    if (job->timer) job->timer->cancel();
  }
}

void ComputerUse::release_held(Job& job) {
  input::InputInjector* injector = s_.interaction ? s_.interaction->injector() : nullptr;
  if (injector)
    for (size_t i = job.held.size(); i-- > 0;) injector->key(job.held[i], false);
  job.held.clear();
}

std::function<void()> ComputerUse::run(std::string_view body, const ComputerOptions& options, Done done) {
  const input::PictureMapping picture = picture_now(s_);
  ActionError error;
  std::optional<ComputerAction> action;
  if (picture.known()) {
    const double px_per_notch = s_.interaction ? s_.interaction->settings().scroll_px_per_notch : 180;
    action = parse_computer_action(body, Scaling::fit(picture.area, options.scale).scaled(), px_per_notch, error);
    if (!action) {
      auto job = std::make_shared<Job>();
      job->done = std::move(done);
      fail(job, 400, error.parameter, error.message);
      return nullptr;
    }
  }
  return run_action(action.value_or(ComputerAction{}), options, std::move(done));
}

std::function<void()> ComputerUse::run_action(ComputerAction action, const ComputerOptions& options, Done done,
                                              std::optional<uint64_t> before_seq) {
  auto job = std::make_shared<Job>();
  job->options = options;
  job->done = std::move(done);
  if (jobs_.size() >= kMaxJobs) {
    fail(job, 503, "", "too many computer actions are running at once; try again");
    return nullptr;
  }
  job->id = ++next_id_;
  jobs_[job->id] = job;
  job->picture = picture_now(s_);
  if (!job->picture.known()) {
    fail(job, 503, "", "the picture's size is not known yet (no display?)");
    return nullptr;
  }
  job->scaling = Scaling::fit(job->picture.area, options.scale);
  job->action = std::move(action);
  ComputerAction& a = job->action;
  const bool acts = !a.input.empty() || !a.hold_keys.empty();
  input::InputInjector* injector = s_.interaction ? s_.interaction->injector() : nullptr;
  if (acts && options.view_only) {
    fail(job, 403, "", net::view_only_refusal(options.user, "act on the desktop (" + a.name + ")"));
    return nullptr;
  }
  if (acts && !injector) {
    fail(job, 503, "", "this desktop takes no input");
    return nullptr;
  }
  const Scaling scaling = job->scaling;
  remap_input_actions(a.input, [&scaling](int x, int y) { return scaling.to_full(x, y); });
  map_input_actions(a.input, job->picture);
  // Read before the first event: whatever the action draws gets a later
  // seq.
  job->before_seq = before_seq.value_or(s_.changes.current_seq());
  if (!a.input.empty()) {
    const RunOutcome run = run_input_actions(a.input, *injector);
    if (run.status != input::InputStatus::kOk) {
      const char* why = run.status == input::InputStatus::kUnknownKey       ? "the desktop has no key for it"
                        : run.status == input::InputStatus::kNoSpareKeycode ? "the keymap has no free key to bind it to"
                                                                            : "the display connection failed";
      s_.log->warn("/computer: {} not played: {}", a.name, why);
      fail(job, 500, "action", a.name + ": " + why);
      return nullptr;
    }
  }
  if (!a.hold_keys.empty()) {
    for (uint32_t k : a.hold_keys) {
      if (injector->key(k, true) != input::InputStatus::kOk) {
        release_held(*job);
        fail(job, 500, "text", a.name + ": a key could not be pressed");
        return nullptr;
      }
      job->held.push_back(k);
    }
    job->timer = std::make_unique<asio::steady_timer>(s_.io, a.hold);
    job->timer->async_wait([this, alive = alive_, job](boost::system::error_code) {
      if (!*alive) return;
      release_held(*job);
      if (job->cancelled) return void(jobs_.erase(job->id));
      settle(job);
    });
  } else {
    settle(job);
  }
  return [this, alive = alive_, job] {
    if (!*alive || job->cancelled) return;
    job->cancelled = true;
    if (job->wait_id) s_.changes.cancel(job->wait_id);
    if (job->shot_cancelled) *job->shot_cancelled = true;
    // A hold in progress still ends with its keys released (its timer
    // erases the job then).
    if (job->held.empty()) jobs_.erase(job->id);
  };
}

void ComputerUse::settle(const std::shared_ptr<Job>& job) {
  const ComputerAction& a = job->action;
  const ComputerOptions& o = job->options;
  const bool is_wait = a.name == "wait";
  if (!a.settle || (o.settle_idle.count() == 0 && !is_wait)) return picture(job);
  // A wait waits for stillness only; an action first gives the screen
  // `react` to start answering it.
  if (is_wait || o.react.count() == 0) return settle_still(job, std::chrono::milliseconds(0));
  WaitSpec w;
  w.change = true;
  w.timeout = std::min(o.react, o.settle_cap);
  w.since = job->before_seq;
  if (!s_.whole_screen) w.region = job->picture.desktop_area();
  s_.changes.current_seq();
  job->wait_id = s_.changes.start_wait(w, [this, alive = alive_, job](const WaitOutcome& outcome) {
    if (!*alive || job->cancelled) return;
    job->wait_id = 0;
    if (!outcome.changed) {
      // Nothing answered the action: the screen is as it was.
      job->settled = outcome;
      job->settled->timed_out = false;
      return picture(job);
    }
    settle_still(job, std::chrono::milliseconds(outcome.waited_ms));
  });
  if (job->wait_id == 0) fail(job, 503, "", "too many waiters at once");
}

void ComputerUse::settle_still(const std::shared_ptr<Job>& job, std::chrono::milliseconds spent) {
  const ComputerAction& a = job->action;
  const ComputerOptions& o = job->options;
  WaitSpec w;
  w.change = false;
  w.idle = o.settle_idle.count() > 0 ? o.settle_idle : std::chrono::milliseconds(300);
  const auto cap = a.wait_cap.count() > 0 ? std::min(a.wait_cap, o.settle_cap) : o.settle_cap;
  w.timeout = std::max(std::chrono::milliseconds(0), cap - spent);
  w.since = job->before_seq;
  // The captured area only: what is drawn beside it is not in the picture.
  if (!s_.whole_screen) w.region = job->picture.desktop_area();
  s_.changes.current_seq();
  job->wait_id = s_.changes.start_wait(w, [this, alive = alive_, job, spent](const WaitOutcome& outcome) {
    if (!*alive || job->cancelled) return;
    job->wait_id = 0;
    job->settled = outcome;
    job->settled->waited_ms += spent.count();
    picture(job);
  });
  if (job->wait_id == 0) fail(job, 503, "", "too many waiters at once");
}

void ComputerUse::picture(const std::shared_ptr<Job>& job) {
  const ComputerAction& a = job->action;
  const ComputerOptions& o = job->options;
  job->out.info["seq"] = s_.changes.current_seq();
  if (!o.screenshot && !a.screenshot) return finish(job);
  ShotRequest shot;
  if (a.zoom) {
    // A zoom shows its part at the desktop's resolution, within the
    // largest size the agent takes.
    shot.region = job->scaling.to_full(*a.zoom);
    shot.scale.max_width = o.scale.max_width;
    shot.scale.max_height = o.scale.max_height;
  } else {
    shot.scale = o.scale;
  }
  if (o.cursor && s_.interaction && s_.interaction->cursor()) {
    input::CursorImagePtr image = s_.interaction->cursor()->current();
    const std::optional<Point> at = pointer_in_picture(s_, job->picture);
    if (image && !image->hidden() && at) {
      shot.cursor = std::move(image);
      shot.pointer = *at;
    }
  }
  job->shot_cancelled = std::make_shared<bool>(false);
  auto& io = s_.io;
  const bool queued = s_.screenshots.submit(
      std::move(shot), [&io, this, alive = alive_, job, cancelled = job->shot_cancelled](Screenshot taken) {
        asio::post(io, [this, alive, job, cancelled, taken = std::move(taken)]() mutable {
          if (!*alive) return;
          if (taken.status == 200 && s_.interaction)
            s_.interaction->set_picture({taken.origin, taken.area}, taken.captured_at);
          if (*cancelled) return;
          if (taken.status != 200)
            return fail(job, taken.status, taken.parameter.empty() ? "" : "region",
                        (taken.parameter.empty() ? "" : "the zoomed region ") + taken.error);
          job->out.png = std::move(taken.png);
          job->out.png_size = taken.size;
          finish(job);
        });
      });
  if (!queued) fail(job, 503, "", "too many screenshots are being taken; try again");
}

void ComputerUse::finish(const std::shared_ptr<Job>& job) {
  const ComputerAction& a = job->action;
  json& info = job->out.info;
  info["action"] = a.name;
  info["schema"] = a.schema == ComputerSchema::kAnthropic ? "anthropic"
                   : a.schema == ComputerSchema::kOpenAI  ? "openai"
                                                          : "a11y";
  info["before_seq"] = job->before_seq;
  if (job->settled) {
    info["changed"] = job->settled->changed;
    info["settled"] = !job->settled->timed_out;
    info["waited_ms"] = job->settled->waited_ms;
  }
  const Size seen = job->scaling.scaled();
  info["width"] = seen.width;
  info["height"] = seen.height;
  if (!job->scaling.identity()) info["scale"] = job->scaling.factor();
  info["coordinates"] = coordinate_space_json(job->scaling, job->picture.origin);
  if (auto at = pointer_in_picture(s_, job->picture)) {
    const Rect area = Rect::from_size(job->picture.area);
    const bool inside = area.contains(Rect{at->x, at->y, 1, 1});
    const Point p = job->scaling.to_scaled(std::clamp(at->x, 0, std::max(0, area.width - 1)),
                                           std::clamp(at->y, 0, std::max(0, area.height - 1)));
    info["cursor"] = {{"x", p.x}, {"y", p.y}, {"in_picture", inside}};
  }
  if (!job->out.png.empty()) info["screenshot"] = {{"width", job->out.png_size.width}, {"height", job->out.png_size.height}};
  jobs_.erase(job->id);
  asio::post(s_.io, [alive = alive_, job] {
    if (!*alive || job->cancelled) return;
    Done d = std::move(job->done);
    d(std::move(job->out));
  });
}

void ComputerUse::fail(const std::shared_ptr<Job>& job, int status, const std::string& parameter,
                       const std::string& error) {
  job->out.status = status;
  job->out.parameter = parameter;
  job->out.error = error;
  if (job->id) jobs_.erase(job->id);
  asio::post(s_.io, [alive = alive_, job] {
    if (!*alive || job->cancelled) return;
    Done d = std::move(job->done);
    d(std::move(job->out));
  });
}

std::optional<json> ComputerUse::cursor(const ScaleSpec& scale, std::string& why) const {
  if (!s_.interaction || !s_.interaction->injector()) {
    why = "this desktop takes no input, so its pointer is not known";
    return std::nullopt;
  }
  const input::PictureMapping picture = picture_now(s_);
  const std::optional<Point> at = pointer_in_picture(s_, picture);
  if (!at || !picture.known()) {
    why = "the desktop cannot tell where its pointer is now";
    return std::nullopt;
  }
  const Scaling scaling = Scaling::fit(picture.area, scale);
  const Rect area = Rect::from_size(picture.area);
  const bool inside = area.contains(Rect{at->x, at->y, 1, 1});
  const Point p = scaling.to_scaled(std::clamp(at->x, 0, std::max(0, area.width - 1)),
                                    std::clamp(at->y, 0, std::max(0, area.height - 1)));
  json out = {{"x", p.x},
              {"y", p.y},
              {"in_picture", inside},
              {"width", scaling.scaled().width},
              {"height", scaling.scaled().height},
              {"desktop", {{"x", at->x + picture.origin.x}, {"y", at->y + picture.origin.y}}}};
  if (!scaling.identity()) out["scale"] = scaling.factor();
  if (input::CursorSource* source = s_.interaction->cursor()) {
    if (input::CursorImagePtr image = source->current())
      out["shape"] = {{"name", image->name},     {"width", image->width}, {"height", image->height},
                      {"hot_x", image->hot_x},   {"hot_y", image->hot_y}, {"hidden", image->hidden()},
                      {"serial", image->serial}};
  }
  return out;
}

}  // namespace voxl::endpoints
