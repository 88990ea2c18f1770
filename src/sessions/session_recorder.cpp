#include "sessions/session_recorder.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <future>
#include <random>
#include <utility>
#include <vector>

#include "base/json_fields.h"

namespace voxl::sessions {

namespace asio = boost::asio;
using endpoints::RecordDisk;
using endpoints::RecordFile;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

int64_t micros(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

uint32_t random_suffix() {
  std::random_device device;
  return device();
}

std::string user_in(const json& fields) {
  const auto it = fields.find("user");
  return it != fields.end() && it->is_string() ? it->get<std::string>().substr(0, kMaxUserBytes) : std::string();
}

std::optional<uint64_t> viewer_in(const json& fields) {
  JsonFields f(fields);
  const auto id = f.integer("viewer", 0, int64_t(1) << 53);
  if (!id) return std::nullopt;
  return uint64_t(*id);
}

// "avc1.F4....": High 4:4:4 Predictive.
bool full_chroma(const std::string& codec) {
  return codec.size() >= 7 && (codec.compare(5, 2, "F4") == 0 || codec.compare(5, 2, "f4") == 0);
}

// Where a segment's MP4 is made: a new file beneath the folder, never one
// that is there already; the free space of the folder's disk.
endpoints::RecordDiskOps segment_ops(const std::shared_ptr<const platform::FileJail>& jail) {
  endpoints::RecordDiskOps ops;
  ops.free_bytes = [jail](const std::string&) { return jail->free_bytes(); };
  ops.make_file = [jail](const std::string& rel, std::string& error) {
    platform::OwnedFile f;
    if (const auto st = jail->create_new(rel, f); !st) error = "cannot make the segment's file: " + st.message;
    return f;
  };
  return ops;
}

}  // namespace

SessionRecorder::SessionRecorder(asio::io_context& io, stream::Hub& hub, std::shared_ptr<const platform::FileJail> jail,
                                 SessionOptions options, Logger log)
    : io_(io), hub_(hub), jail_(std::move(jail)), options_(std::move(options)), log_(std::move(log)),
      disk_(std::make_shared<RecordDisk>(options_.disk)), keys_timer_(io), retention_timer_(io) {
  run_retention();  // what earlier runs left, and the rules
  arm_retention();
}

SessionRecorder::~SessionRecorder() {
  if (live_) end_session("stop", false);
  keys_timer_.cancel();
  retention_timer_.cancel();
  *alive_ = false;
  // The last segment's index and seal are queued: let them be written.
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  if (disk_->submit([done] { done->set_value(); }, 0, RecordDisk::Kind::kAlways) &&
      finished.wait_for(kStopWait) != std::future_status::ready)
    log_->warn("recorded sessions: the disk did not finish the last segment within {} s", kStopWait.count());
}

void SessionRecorder::note(std::string event, json fields) {
  asio::post(io_, [this, alive = alive_, event = std::move(event), fields = std::move(fields)]() mutable {
    if (*alive) on_event(std::move(event), std::move(fields));
  });
}

LiveState SessionRecorder::live() const {
  LiveState s;
  if (live_) {
    s.id = live_->head.id;
    s.stopped = live_->stopped;
  }
  for (const auto& [id, n] : writing_) s.writing.insert(id);
  return s;
}

int64_t SessionRecorder::now_wall() const {
  if (options_.wall_ms) return options_.wall_ms();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t SessionRecorder::session_ms(Clock::time_point t) const {
  if (!live_) return 0;
  return std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(t - live_->started).count());
}

bool SessionRecorder::submit(std::function<void()> job, uint64_t bytes, RecordDisk::Kind kind) {
  return disk_->submit(std::move(job), bytes, kind);
}

void SessionRecorder::on_event(std::string event, json fields) {
  if (event == "key") {
    if (!live_) return;
    const std::string user = user_in(fields);
    if (keys_.empty()) {
      keys_timer_.expires_after(std::chrono::seconds(1));
      keys_timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
        if (!ec && *alive) flush_keys();
      });
    }
    JsonFields f(fields);
    keys_[user] += uint64_t(f.integer("count", 1, 1 << 20).value_or(1));
    return;
  }
  if (event == "connect") {
    const auto viewer = viewer_in(fields);
    if (!viewer) return;
    const std::string user = user_in(fields);
    viewers_[*viewer] = user;
    if (!live_) begin_session();
    else if (live_->segment) live_->segment->users.insert(user);
  }
  write_event(event, fields);
  if (event == "leave") {
    if (const auto viewer = viewer_in(fields)) viewers_.erase(*viewer);
    if (viewers_.empty() && live_) end_session("end");
  }
}

void SessionRecorder::begin_session() {
  Live l;
  l.head.started_ms = now_wall();
  l.head.id = session_id(l.head.started_ms, random_suffix());
  l.started = Clock::now();
  l.disk = std::make_shared<SessionDisk>(jail_, l.head);
  live_ = std::move(l);
  ++sessions_;
  const std::string id = live_->head.id;
  log_->info("recording the session {} in {}", id, jail_->root());
  const bool queued = submit(
      [disk = live_->disk, &io = io_, alive = alive_, this, id] {
        std::string error;
        if (disk->begin(error)) return;
        asio::post(io, [this, alive, id, error] {
          if (*alive && live_ && live_->head.id == id) stop_recording("cannot make the session's folder: " + error);
        });
      },
      0, RecordDisk::Kind::kAlways);
  if (!queued) return stop_recording("the server is stopping");
  in_hub_ = true;
  hub_.add(this);  // asks for a key frame
}

void SessionRecorder::end_session(const char* reason, bool retention) {
  if (live_->segment) end_segment(reason, Clock::now());
  flush_keys();
  if (in_hub_) hub_.remove(this);
  in_hub_ = false;
  log_->info("the session {} ended ({} segments)", live_->head.id, live_->next_index - 1);
  live_.reset();
  if (retention) run_retention();
}

void SessionRecorder::start_segment(const encode::EncodedFramePtr& key) {
  Segment s;
  s.index = live_->next_index++;
  if (s.index > kMaxSegments) return stop_recording("the session has " + std::to_string(kMaxSegments) + " segments");
  s.first = key->captured_at;
  s.size = key->size;
  s.rung = key->rung;
  s.codec = key->codec;
  for (const auto& [viewer, user] : viewers_) s.users.insert(user);
  const std::string id = live_->head.id;
  s.file = std::make_shared<RecordFile>(disk_, segment_ops(jail_), id + "/" + segment_part(s.index),
                                        options_.min_free_bytes);
  const int index = s.index;
  live_->segment = std::move(s);
  const bool queued = submit(
      [file = live_->segment->file, &io = io_, alive = alive_, this, id, index] {
        RecordFile::Opened o = file->open();
        if (o.status == RecordFile::Opened::Status::kOk) return;
        asio::post(io, [this, alive, id, index, o = std::move(o)] {
          if (!*alive || !live_ || live_->head.id != id || !live_->segment || live_->segment->index != index) return;
          if (o.status == RecordFile::Opened::Status::kLowDisk)
            return stop_recording("the disk has " + std::to_string(o.free.value_or(0) >> 20) + " MB free, below the " +
                                  std::to_string(options_.min_free_bytes >> 20) + " MB recordings leave");
          stop_recording(o.error);
        });
      },
      0, RecordDisk::Kind::kBounded);
  if (!queued) stop_recording("the disk cannot keep up");
}

void SessionRecorder::on_video(const encode::EncodedFramePtr& f) {
  if (!live_ || !live_->recording) return;
  if (f->stripes > 1)
    return stop_recording("the stream is coded in bands (--stripes above 1), which an MP4 cannot hold");
  const Clock::time_point at = f->captured_at;
  // A High 4:4:4 picture published before the recorder's veto took effect
  // (its MP4 stays 4:2:0, which every browser plays): the segment ends
  // before it and the next starts at the 4:2:0 key frame that follows.
  if (full_chroma(f->codec)) {
    if (live_->segment) end_segment("stream", at);  // the switch back is a key frame of its own
    return;
  }
  if (live_->segment) {
    const Segment& s = *live_->segment;
    const bool resized = f->size != s.size;
    const bool other = f->rung != s.rung || f->codec != s.codec;
    if (resized || other || (f->key && s.cut_asked)) {
      end_segment(resized ? "resize" : other ? "stream" : "length", at);
      if (!f->key) {
        hub_.request_keyframe(this);
        return;
      }
    }
  }
  if (!live_->segment) {
    if (!f->key) return;
    start_segment(f);
    if (!live_->recording) return;
  }
  Segment& s = *live_->segment;
  // The free space is looked at about once a second, before the frame.
  const bool look = !s.cut_asked && (f->key || f->id % 30 == 0);
  std::vector<RecordFile::Item> items{RecordFile::Item{f, micros(at), at, look}};
  const std::string id = live_->head.id;
  const int index = s.index;
  const bool queued = submit(
      [file = s.file, items = std::move(items), &io = io_, alive = alive_, this, id, index] {
        RecordFile::Written w = file->write(items);
        if (!w.error && !w.low_disk_at) return;
        asio::post(io, [this, alive, id, index, w = std::move(w)] {
          if (!*alive || !live_ || live_->head.id != id || !live_->segment || live_->segment->index != index) return;
          if (w.error) return stop_recording("cannot write segment " + std::to_string(index) + ": " + *w.error);
          end_segment("low-disk-space", *w.low_disk_at);
          stop_recording("the disk's free space fell below the " + std::to_string(options_.min_free_bytes >> 20) +
                         " MB recordings leave");
        });
      },
      f->data.size(), RecordDisk::Kind::kBounded);
  if (!queued) return stop_recording("the disk cannot keep up with the stream");
  if (!s.cut_asked && at - s.first >= options_.segment_length) {
    s.cut_asked = true;
    hub_.request_keyframe(this);
  }
}

void SessionRecorder::end_segment(const char* reason, Clock::time_point at) {
  Segment s = std::move(*live_->segment);
  live_->segment.reset();
  SegmentInfo info;
  info.index = s.index;
  info.start_ms = session_ms(s.first);
  info.width = s.size.width;
  info.height = s.size.height;
  info.users.assign(s.users.begin(), s.users.end());
  info.ended = reason;
  // The session's first key frame may have been captured just before the
  // session began (it was being coded when the viewer came): the segment is
  // counted from the session's start then, so the next one follows it.
  const int64_t first_us = micros(std::max(s.first, live_->started));
  const std::string id = live_->head.id;
  ++writing_[id];
  const bool queued = submit(
      [file = std::move(s.file), disk = live_->disk, info = std::move(info), first_us, end_us = micros(at),
       &io = io_, alive = alive_, this]() mutable {
        std::string error;
        bool sealed = false;
        uint64_t bytes = 0;
        try {
          RecordFile::Finished r = file->finish(end_us, info.ended);
          if (r.status == 200 && r.file) {
            const int64_t last_us = r.low_disk_at ? std::min(end_us, micros(*r.low_disk_at)) : end_us;
            info.duration_ms = std::max<int64_t>(0, (last_us - first_us) / 1000);
            info.bytes = bytes = r.bytes;
            info.frames = r.frames;
            if (r.low_disk_at) info.ended = "low-disk-space";
            sealed = disk->seal(*r.file, info, error);
          } else {
            error = r.error;
            disk->discard(info.index);
          }
        } catch (const std::exception& e) {
          error = std::string("sealing it failed: ") + e.what();
          sealed = false;
        }
        // Always answered, so the session is not held as being written.
        asio::post(io, [this, alive, id = disk->id(), index = info.index, sealed, error, bytes] {
          if (*alive) segment_done(id, index, sealed, error, bytes);
        });
      },
      0, RecordDisk::Kind::kAlways);
  if (!queued && --writing_[id] == 0) writing_.erase(id);
}

void SessionRecorder::segment_done(const std::string& id, int index, bool sealed, const std::string& error,
                                   uint64_t bytes) {
  if (const auto it = writing_.find(id); it != writing_.end() && --it->second == 0) writing_.erase(it);
  if (sealed) {
    ++segments_;
    segment_bytes_ += bytes;
    log_->debug("the session {}: segment {} written ({} bytes)", id, index, bytes);
    if (options_.retention.max_bytes) run_retention();
    return;
  }
  if (live_ && live_->head.id == id) return stop_recording("segment " + std::to_string(index) + " was lost: " + error);
  log_->warn("the session {}: segment {} was lost: {}", id, index, error);
}

void SessionRecorder::stop_recording(const std::string& why) {
  if (!live_ || !live_->recording) return;
  live_->recording = false;
  live_->stopped = why;
  ++stops_;
  log_->warn("the session {} is no longer recorded: {}; the stream goes on", live_->head.id, why);
  if (live_->segment) end_segment("stopped", Clock::now());
  write_event("recording_stopped", json{{"why", why}});
  if (in_hub_) hub_.remove(this);
  in_hub_ = false;
}

void SessionRecorder::on_dropped(std::string_view what) {
  in_hub_ = false;  // the hub let go already
  stop_recording("taking a frame failed: " + std::string(what));
}

void SessionRecorder::write_event(std::string_view event, const json& fields) {
  if (!live_) return;
  std::string line = event_line(session_ms(Clock::now()), event, fields);
  const uint64_t bytes = line.size();
  const bool queued = submit(
      [disk = live_->disk, line = std::move(line), &io = io_, alive = alive_, this] {
        std::string error;
        if (disk->append(line, error)) return;
        asio::post(io, [this, alive] {
          if (*alive) ++events_lost_;
        });
      },
      bytes, RecordDisk::Kind::kBounded);
  if (!queued) ++events_lost_;
}

void SessionRecorder::flush_keys() {
  keys_timer_.cancel();
  for (const auto& [user, count] : keys_) write_event("keys", json{{"user", user}, {"count", count}});
  keys_.clear();
}

void SessionRecorder::run_retention() {
  (void)submit(
      [jail = jail_, rules = options_.retention, live = live_ ? live_->head.id : std::string(), now = now_wall(),
       log = log_] { apply_removals(*jail, plan_retention(scan_sessions(*jail), live, now, rules), log); },
      0, RecordDisk::Kind::kBounded);
}

void SessionRecorder::arm_retention() {
  retention_timer_.expires_after(kRetentionEvery);
  retention_timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (ec || !*alive) return;
    run_retention();
    arm_retention();
  });
}

void SessionRecorder::write_metrics(MetricsText& m) const {
  using T = MetricsText::Type;
  m.family("voxl_session_recording", T::kGauge, "1 while a session is being recorded (--record-sessions)");
  m.sample("voxl_session_recording", live_ && live_->recording ? 1.0 : 0.0);
  m.family("voxl_sessions_recorded_total", T::kCounter, "Sessions begun (a first viewer connected)");
  m.sample("voxl_sessions_recorded_total", double(sessions_));
  m.family("voxl_session_segments_total", T::kCounter, "Segments of recorded sessions written");
  m.sample("voxl_session_segments_total", double(segments_));
  m.family("voxl_session_segment_bytes_total", T::kCounter, "Bytes of recorded sessions' segments written");
  m.sample("voxl_session_segment_bytes_total", double(segment_bytes_));
  m.family("voxl_session_recording_stops_total", T::kCounter,
           "Recordings stopped early (a full or failing disk, low free space, a disk that could not keep up)");
  m.sample("voxl_session_recording_stops_total", double(stops_));
  m.family("voxl_session_events_lost_total", T::kCounter, "Events of recorded sessions that could not be written");
  m.sample("voxl_session_events_lost_total", double(events_lost_));
}

}  // namespace voxl::sessions
