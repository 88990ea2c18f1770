#include "stream/fanout/hub.h"

#include <algorithm>
#include <optional>
#include <string>

#include "stream/viewer/viewer_settings.h"

namespace voxl::stream {

Hub::Time Hub::now() const { return controls_.now ? controls_.now() : std::chrono::steady_clock::now(); }

Hub::Member* Hub::find(const VideoSink* sink) {
  const auto it = std::find_if(members_.begin(), members_.end(), [sink](const Member& m) { return m.sink == sink; });
  return it == members_.end() ? nullptr : &*it;
}

const Hub::Member* Hub::find(const VideoSink* sink) const {
  const auto it = std::find_if(members_.begin(), members_.end(), [sink](const Member& m) { return m.sink == sink; });
  return it == members_.end() ? nullptr : &*it;
}

int Hub::rungs() const { return std::clamp(std::min(max_rungs_, budget_), 1, kMaxRungs); }

bool Hub::any_driver() const {
  return std::any_of(members_.begin(), members_.end(), [](const Member& m) { return !m.sink->observes(); });
}

void Hub::add(VideoSink* sink) {
  if (find(sink)) return;
  const bool was_active = any_driver();
  members_.push_back(Member{sink, 0, -1, RungSeat{}});  // rung 0 until its link is measured
  if (!was_active && any_driver() && controls_.set_active) controls_.set_active(true);
  refresh_chroma();
  request_rung_key(0);
  replan();
  refresh_fps();
  refresh_motion();
}

void Hub::remove(VideoSink* sink) {
  const auto it = std::find_if(members_.begin(), members_.end(), [sink](const Member& m) { return m.sink == sink; });
  if (it == members_.end()) return;
  const bool was_active = any_driver();
  members_.erase(it);
  if (was_active && !any_driver() && controls_.set_active) controls_.set_active(false);
  refresh_chroma();
  replan();
  refresh_fps();
  refresh_motion();
}

void Hub::set_rung_budget(int rungs) {
  if (rungs <= 0 || rungs == budget_) return;
  budget_ = rungs;
  replan();
}

void Hub::publish(const encode::EncodedFramePtr& frame) {
  const int r = std::clamp(frame->rung, 0, kMaxRungs - 1);
  if (frame->key) {
    Rung& rung = rungs_[size_t(r)];
    rung.key_pending = false;
    rung.key_deferred = false;  // a request put off is served by this one
    rung.last_key_at = now();
    rung.any_key = true;
  }
  // A sink may leave while being fed (its socket failed): iterate a copy,
  // kept between frames so a frame costs no allocation.
  fanout_.clear();
  for (const Member& m : members_) fanout_.push_back(m.sink);
  bool switched = false;
  for (VideoSink* s : fanout_) {
    Member* m = find(s);
    if (!m) continue;
    if (m->rung != r) {
      // A move completes at the new rung's key frame (its first band).
      if (m->next != r || !frame->key || frame->stripe != 0) continue;
      m->rung = r;
      m->next = -1;
      ++moves_;
      switched = true;
    }
    feed(s, frame);
  }
  if (switched) {
    refresh_chroma();
    refresh_rungs();
  } else {
    refresh_pause();
  }
}

void Hub::feed(VideoSink* sink, const encode::EncodedFramePtr& frame) {
  std::string what;
  try {
    sink->on_video(frame);
    return;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "an unknown exception";
  }
  drop(sink, what);
}

// Out of the hub first, so the pipeline's state is right whatever the sink
// does when told (a viewer closing calls remove() again: a no-op).
void Hub::drop(VideoSink* sink, std::string_view what) {
  ++dropped_;
  if (log_) log_->error("a consumer of the stream failed taking a frame ({}); it gets no more frames", what);
  remove(sink);
  try {
    sink->on_dropped(what);
  } catch (const std::exception& e) {
    if (log_) log_->error("a dropped consumer of the stream failed again when told: {}", e.what());
  } catch (...) {
    if (log_) log_->error("a dropped consumer of the stream failed again when told: an unknown exception");
  }
}

void Hub::replan() {
  seats_.resize(members_.size());
  for (size_t i = 0; i < members_.size(); ++i) {
    const Member& m = members_[i];
    RungSeat& s = seats_[i];
    s = m.seat;
    s.link_kbps = m.sink->link_kbps();
    s.pinned_top = m.sink->wants_top_rung();
    s.rung = rung_wanted(m);
  }
  planner_.plan(seats_, rungs(), now());
  // Observers go where the best picture for the others is going.
  std::optional<int> best;
  for (size_t i = 0; i < members_.size(); ++i)
    if (!members_[i].sink->observes()) best = std::min(best.value_or(kMaxRungs), seats_[i].rung);
  if (best)
    for (size_t i = 0; i < members_.size(); ++i)
      if (members_[i].sink->observes()) seats_[i].rung = *best;
  unsigned keys = 0;  // the rungs a move needs a key frame of
  for (size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    m.seat = seats_[i];
    const int want = seats_[i].rung;
    if (want == rung_wanted(m)) continue;
    if (want == m.rung) {
      m.next = -1;  // back where it is: the move is off
    } else {
      m.next = want;
      keys |= 1u << unsigned(want);
    }
  }
  // 4:4:4 is withdrawn before the key frame a newcomer to rung 0 needs.
  refresh_chroma();
  for (int r = 0; r < kMaxRungs; ++r)
    if (keys & (1u << unsigned(r))) request_rung_key(r);
  refresh_rungs();
}

void Hub::refresh_rungs() {
  bool any_coded = false, any_ready = false;
  for (int r = 0; r < kMaxRungs; ++r) {
    Rung& rung = rungs_[size_t(r)];
    bool coded = false, ready = false;
    targets_.clear();
    for (const Member& m : members_) {
      if (!drives(m, r)) continue;
      coded = true;
      ready = ready || m.sink->ready();
      // One on its way to a slower rung (moving, or leaning there) no
      // longer sets this one's rate.
      if (m.rung == r && (m.next > r || (m.next < 0 && m.seat.leaning_to > r))) continue;
      if (const int t = m.sink->target_kbps(); t > 0) targets_.push_back(t);
    }
    if (targets_.empty() && coded) {
      for (const Member& m : members_)
        if (drives(m, r))
          if (const int t = r > 0 ? m.sink->link_kbps() : m.sink->target_kbps(); t > 0) targets_.push_back(t);
    }
    any_coded = any_coded || coded;
    any_ready = any_ready || ready;
    if (r > 0 && !coded && !rung.told) continue;  // never used: nothing to say
    const int kbps = combined_target_kbps(targets_, limits_);
    if (kbps != rung.target_kbps) {
      rung.target_kbps = kbps;
      if (controls_.set_target_kbps) controls_.set_target_kbps(r, kbps);
    }
    if (!rung.told || coded != rung.coded || ready != rung.ready) {
      rung.told = true;
      rung.coded = coded;
      rung.ready = ready;
      if (controls_.set_rung) controls_.set_rung(r, coded, ready);
    }
  }
  const bool paused = any_coded && !any_ready;
  if (paused == paused_) return;
  paused_ = paused;
  if (controls_.set_paused) controls_.set_paused(paused);
}

void Hub::refresh_pause() { refresh_rungs(); }

void Hub::set_bitrate_limits(BitrateLimits limits) {
  limits_ = limits;
  refresh_rungs();
}

void Hub::refresh_rate() { replan(); }

void Hub::set_max_rungs(int rungs) {
  max_rungs_ = std::clamp(rungs, 1, kMaxRungs);
  replan();
}

int Hub::rung_of(const VideoSink* sink) const {
  const Member* m = find(sink);
  return m ? m->rung : 0;
}

int Hub::moving_to(const VideoSink* sink) const {
  const Member* m = find(sink);
  return m ? m->next : -1;
}

int Hub::sinks_on(int rung) const {
  return int(std::count_if(members_.begin(), members_.end(), [rung](const Member& m) { return m.rung == rung; }));
}

int Hub::target_kbps(int rung) const {
  return rung >= 0 && rung < kMaxRungs ? rungs_[size_t(rung)].target_kbps : 0;
}

bool Hub::rung_coded(int rung) const { return rung >= 0 && rung < kMaxRungs && rungs_[size_t(rung)].coded; }

void Hub::set_server_max_fps(int fps) {
  server_max_fps_ = std::max(1, fps);
  refresh_fps();
}

void Hub::refresh_fps() {
  caps_.clear();
  for (const Member& m : members_)
    if (!m.sink->observes()) caps_.push_back(m.sink->max_fps());
  const int fps = combined_max_fps(caps_, server_max_fps_);
  if (fps == max_fps_) return;
  max_fps_ = fps;
  if (controls_.set_max_fps) controls_.set_max_fps(fps);
}

void Hub::set_server_motion(Motion m) {
  server_motion_ = m;
  refresh_motion();
}

// A recording has no say, as with the frame rate.
void Hub::refresh_motion() {
  std::vector<std::optional<Motion>> choices;
  for (const Member& m : members_)
    if (!m.sink->observes()) choices.push_back(m.sink->motion());
  const Motion motion = combined_motion(choices, server_motion_);
  if (motion == motion_) return;
  motion_ = motion;
  if (controls_.set_motion) controls_.set_motion(motion);
}

void Hub::refresh_chroma() {
  bool any = false, all = true;
  for (const Member& m : members_) {
    if (!counts_on(m, 0)) continue;
    any = true;
    all = all && m.sink->takes_full_chroma();
  }
  const bool full = any && all;
  if (full == full_chroma_) return;
  full_chroma_ = full;
  if (controls_.set_full_chroma) controls_.set_full_chroma(full);
}

void Hub::request_keyframe() { request_rung_key(0); }

void Hub::request_keyframe(const VideoSink* sink) {
  const Member* m = find(sink);
  request_rung_key(m ? rung_wanted(*m) : 0);
}

bool Hub::key_deferred() const {
  return std::any_of(rungs_.begin(), rungs_.end(), [](const Rung& r) { return r.key_deferred; });
}

void Hub::request_rung_key(int r) {
  Rung& rung = rungs_[size_t(std::clamp(r, 0, kMaxRungs - 1))];
  if (rung.key_deferred) return;  // the timer's IDR serves this one too
  const auto t = now();
  if (rung.key_pending && t - rung.key_asked_at < kRetry) return;
  if (rung.any_key && t - rung.last_key_at < kMinKeyInterval && controls_.arm_key_timer) {
    rung.key_deferred = true;
    arm_timer(t);
    return;
  }
  ask_encoder(r, t);
}

// One timer for every rung: to the earliest interval's end still waited for.
void Hub::arm_timer(Time t) {
  std::optional<Time> due;
  for (const Rung& r : rungs_)
    if (r.key_deferred) due = std::min(due.value_or(Time::max()), r.last_key_at + kMinKeyInterval);
  if (due) controls_.arm_key_timer(std::max(Time::duration::zero(), *due - t));
}

void Hub::on_key_timer() {
  const auto t = now();
  bool waiting = false;
  for (int r = 0; r < kMaxRungs; ++r) {
    Rung& rung = rungs_[size_t(r)];
    if (!rung.key_deferred) continue;
    // A timer may fire a little early by this clock.
    if (rung.last_key_at + kMinKeyInterval > t + std::chrono::milliseconds(1)) {
      waiting = true;
      continue;
    }
    rung.key_deferred = false;
    const bool wanted = std::any_of(members_.begin(), members_.end(), [&](const Member& m) { return drives(m, r); });
    if (wanted) ask_encoder(r, t);  // nobody left to want it otherwise
  }
  if (waiting && controls_.arm_key_timer) arm_timer(t);
}

void Hub::ask_encoder(int r, Time t) {
  Rung& rung = rungs_[size_t(r)];
  rung.key_pending = true;
  rung.key_asked_at = t;
  rung.last_key_at = t;
  rung.any_key = true;
  if (controls_.request_keyframe) controls_.request_keyframe(r);
}

}  // namespace voxl::stream
