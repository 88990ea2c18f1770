// The audit trail's writer (--audit-log FILE): each event a JSON line,
// chained to the one before (audit_chain.h), appended to the file by a
// thread of its own, so a slow or full disk never holds the loop or the
// stream. Events wait in a queue of at most kMaxQueued; past it, or when a
// write fails, they are counted as dropped and the next line that is
// written says how many ("dropped": N), so the gap is on the record. Each
// batch of lines is written with one append and put on the disk
// (fdatasync) before the next; a write that fails half way is cut back.
// The file is rotated when a batch would take it past `rotate_bytes`: it
// becomes FILE.1 (FILE.1 becomes FILE.2, and so on, `keep` of them), and the
// chain goes on in the new file. After a restart the chain goes on from
// the file's last good line. With `journal`, each line is an entry of the
// system's journal instead, sent by the same thread.
//
// Threads: record() and health() from any thread; the writing on the
// object's own. Ownership: the destructor writes what is queued (for at
// most kFlushLimit), then joins the thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "audit/audit_chain.h"
#include "base/logging.h"
#include "base/metrics_text.h"
#include "platform/owned_file.h"

namespace voxl::audit {

struct AuditOptions {
  std::string path;
  // --audit-journal: each line goes to the system's journal as an entry
  // instead (platform/system_journal.h; `path` is unused, nothing is
  // rotated, and each start begins a new chain).
  bool journal = false;
  uint64_t rotate_bytes = 64ull << 20;
  int keep = 10;  // rotated files kept besides the live one
};

class AuditLog {
 public:
  static constexpr size_t kMaxQueued = 4096;
  static constexpr auto kFlushLimit = std::chrono::seconds(5);

  // Opens the file and finds where its chain stands. Throws
  // std::runtime_error naming the file when it cannot be opened.
  AuditLog(AuditOptions options, Logger log);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Queues the event `event` ("sign_in") with `fields` (a JSON object's
  // members; never secrets or typed text). Never blocks.
  void record(std::string event, nlohmann::json fields = nlohmann::json::object());

  // Waits (at most kFlushLimit) until every event recorded before the call
  // is written or counted as dropped. False when the time ran out.
  bool flush();

  struct Health {
    uint64_t written = 0;  // lines on the disk
    uint64_t dropped = 0;  // events lost: the queue was full, or a write failed
    uint64_t rotations = 0;
    bool failing = false;  // the last write failed
  };
  Health health() const;
  void write_metrics(MetricsText& out) const;

 private:
  struct Event {
    std::string time;
    std::string name;
    nlohmann::json fields;
  };
  void run();
  void write_batch(std::deque<Event>& batch);
  // The journal's part of write_batch: `lines` (each with its event's name).
  void send_batch(const std::vector<std::pair<std::string, std::string>>& lines, ChainState chain, uint64_t lost,
                  uint64_t owed, uint64_t carried);
  std::string destination() const;
  void rotate_if_needed(uint64_t adding);
  // `lost` events are gone now; `unreported` are owed to the next line's
  // "dropped". An empty `what` is no failure of the file.
  void failed(const std::string& what, uint64_t lost, uint64_t unreported);

  const AuditOptions options_;
  Logger log_;
  platform::OwnedFile file_;   // the writer thread's, after the constructor
  uint64_t size_ = 0;          // the file's bytes, as written
  ChainState chain_;           // after the last line on the disk
  bool cut_ = false;           // a failed write left a cut-off line: end it first
  std::string last_error_;     // said once until it changes

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable done_cv_;  // a batch was finished
  std::deque<Event> queue_;
  uint64_t taken_ = 0;     // events queued so far
  uint64_t finished_ = 0;  // of those, written or dropped
  uint64_t unreported_drops_ = 0;  // dropped since the last line that said so
  Health health_;
  bool stop_ = false;
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace voxl::audit
