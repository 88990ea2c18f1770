// --record-sessions DIR: while anyone watches, the stream they get is
// written to DIR as a session (sessions/session_files.h: segments of MP4,
// no second encode, and an events file beside them), under the retention
// rules (sessions/retention.h).
//
// A session begins when the first viewer connects and ends when the last
// one leaves. The recorder is an observer of the hub (stream/fanout/hub.h):
// it takes the best picture any viewer takes and has no say in the
// stream, so a recording never changes what the viewers get, except that
// the still screen's 4:4:4 paintover is off while it records (its MP4
// stays 4:2:0, as /record's). A segment ends at its length (at the key
// frame it then asks for), at a change of picture size or of the rung it
// follows, and when the session ends; each holds whole groups of pictures
// from a key frame.
//
// Events come from the audit trail's sink (base/audit_sink.h), passed on
// by note(): viewers connecting and leaving drive the session; every event
// while it runs is written with its time in the session. Keystrokes come
// as "key" events and are written only as markers: one "keys" line per
// user and second, with a count.
//
// The disk is never touched on the loop: the folder, the events, the
// segments' frames and indexes, the sealing and the retention run on one
// disk thread (endpoints::RecordDisk, bounded). A disk that fails or fills
// (or whose free space falls below the floor, or that cannot keep up)
// stops the recording with one log line; the stream goes on, and the next
// session tries again.
//
// Threads: the loop thread, but note() (any thread: it posts to the loop).
// Destroy on the loop thread before the io_context and the hub, with the
// loop no longer running: the live session is ended and the disk thread
// given up to kStopWait to write its last segment.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "base/logging.h"
#include "base/metrics_text.h"
#include "endpoints/record_disk.h"
#include "endpoints/record_file.h"
#include "platform/file_jail.h"
#include "sessions/retention.h"
#include "sessions/session_disk.h"
#include "sessions/session_store.h"
#include "stream/fanout/hub.h"

namespace voxl::sessions {

struct SessionOptions {
  std::chrono::seconds segment_length{120};
  RetentionRules retention;
  // Recording stops when the folder's disk has less free space than this.
  uint64_t min_free_bytes = uint64_t(256) << 20;
  // The disk thread's queue bounds (frames and events waiting).
  endpoints::RecordDiskOptions disk;
  // Unix time in ms; the system clock when empty (tests pass their own).
  std::function<int64_t()> wall_ms;
};

class SessionRecorder final : public stream::VideoSink {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kStopWait{10};
  static constexpr std::chrono::hours kRetentionEvery{1};

  SessionRecorder(boost::asio::io_context& io, stream::Hub& hub, std::shared_ptr<const platform::FileJail> jail,
                  SessionOptions options, Logger log);
  ~SessionRecorder() override;
  SessionRecorder(const SessionRecorder&) = delete;
  SessionRecorder& operator=(const SessionRecorder&) = delete;

  // Any thread: an event of the audit trail, or "key" (a keystroke marker).
  void note(std::string event, nlohmann::json fields);

  LiveState live() const;
  void write_metrics(MetricsText& out) const;

  void on_video(const encode::EncodedFramePtr& f) override;
  bool observes() const override { return true; }
  void on_dropped(std::string_view what) override;

 private:
  struct Segment {
    int index = 0;
    std::shared_ptr<endpoints::RecordFile> file;  // the disk thread's
    Clock::time_point first;
    Size size;
    int rung = 0;
    std::string codec;
    std::set<std::string> users;
    bool cut_asked = false;  // its length passed: a key frame was asked for
  };
  struct Live {
    SessionHead head;
    Clock::time_point started;
    std::shared_ptr<SessionDisk> disk;  // the disk thread's
    int next_index = 1;
    std::optional<Segment> segment;
    bool recording = true;  // false once stopped early
    std::string stopped;
  };

  void on_event(std::string event, nlohmann::json fields);
  void begin_session();
  // `retention`: the rules are applied after (not when voxl stops).
  void end_session(const char* reason, bool retention = true);
  void start_segment(const encode::EncodedFramePtr& key);
  void end_segment(const char* reason, Clock::time_point at);
  void segment_done(const std::string& id, int index, bool sealed, const std::string& error, uint64_t bytes);
  void stop_recording(const std::string& why);
  void write_event(std::string_view event, const nlohmann::json& fields);
  void flush_keys();
  void run_retention();
  void arm_retention();
  int64_t now_wall() const;
  int64_t session_ms(Clock::time_point t) const;
  bool submit(std::function<void()> job, uint64_t bytes, endpoints::RecordDisk::Kind kind);

  boost::asio::io_context& io_;
  stream::Hub& hub_;
  std::shared_ptr<const platform::FileJail> jail_;
  SessionOptions options_;
  Logger log_;
  std::shared_ptr<endpoints::RecordDisk> disk_;
  std::map<uint64_t, std::string> viewers_;  // who watches: viewer id -> user
  std::map<std::string, int> writing_;       // segments being finished, by session
  std::optional<Live> live_;
  bool in_hub_ = false;
  std::map<std::string, uint64_t> keys_;  // keystrokes per user since the last marker
  boost::asio::steady_timer keys_timer_;
  boost::asio::steady_timer retention_timer_;
  // Figures for /metrics.
  uint64_t sessions_ = 0, segments_ = 0, segment_bytes_ = 0, stops_ = 0, events_lost_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::sessions
