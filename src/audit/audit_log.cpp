#include "audit/audit_log.h"

#include <spdlog/fmt/chrono.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/json_text.h"
#include "platform/append_file.h"
#include "platform/system_journal.h"

namespace voxl::audit {
namespace {

namespace fs = std::filesystem;

fs::path path_of(const std::string& utf8) { return fs::path(std::u8string(utf8.begin(), utf8.end())); }

// UTC, to the millisecond: 2026-12-05T07:51:02.123Z.
std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(now)), ms);
}

// The end of the file (enough for its last line), to go on from its chain.
std::string file_tail(const std::string& path) {
  std::ifstream in(path_of(path), std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = std::max<std::streamoff>(0, size - std::streamoff(2 * kMaxLine));
  in.seekg(start);
  std::string text(size_t(size - start), '\0');
  in.read(text.data(), std::streamsize(text.size()));
  if (start > 0) {
    // The first line read may be a part of one: drop it.
    const size_t nl = text.find('\n');
    text = nl == std::string::npos ? std::string() : text.substr(nl + 1);
  }
  return text;
}

}  // namespace

AuditLog::AuditLog(AuditOptions options, Logger log) : options_(std::move(options)), log_(std::move(log)) {
  if (options_.journal) {
    if (const std::string problem = platform::journal_problem(); !problem.empty())
      throw std::runtime_error("--audit-journal: " + problem);
    thread_ = std::thread([this] { run(); });
    return;
  }
  std::string error;
  file_ = platform::open_append_file(options_.path, error);
  if (!file_.valid()) throw std::runtime_error("--audit-log: cannot open '" + options_.path + "': " + error);
  if (!platform::file_size(file_.get(), size_, error))
    throw std::runtime_error("--audit-log: '" + options_.path + "': " + error);
  const std::string tail = size_ > 0 ? file_tail(options_.path) : std::string();
  if (const auto state = last_state(tail)) chain_ = *state;
  // A last line cut off by a crash is ended, so the next line stands alone.
  cut_ = !tail.empty() && tail.back() != '\n';
  if (size_ > 0 && !last_state(tail))
    log_->warn("--audit-log: '{}' does not end in an audit line; a new chain starts after it", options_.path);
  thread_ = std::thread([this] { run(); });
}

AuditLog::~AuditLog() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void AuditLog::record(std::string event, nlohmann::json fields) {
  {
    std::lock_guard lock(mu_);
    if (stop_ || queue_.size() >= kMaxQueued) {
      ++health_.dropped;
      ++unreported_drops_;
      return;
    }
    queue_.push_back({utc_now(), std::move(event), std::move(fields)});
    ++taken_;
  }
  cv_.notify_one();
}

bool AuditLog::flush() {
  std::unique_lock lock(mu_);
  const uint64_t target = taken_;
  return done_cv_.wait_for(lock, kFlushLimit, [&] { return finished_ >= target; });
}

AuditLog::Health AuditLog::health() const {
  std::lock_guard lock(mu_);
  return health_;
}

void AuditLog::write_metrics(MetricsText& m) const {
  const Health h = health();
  using T = MetricsText::Type;
  m.family("voxl_audit_lines_written_total", T::kCounter, "Audit lines on the disk (--audit-log)");
  m.sample("voxl_audit_lines_written_total", double(h.written));
  m.family("voxl_audit_events_dropped_total", T::kCounter,
           "Audit events lost: the writer's queue was full or a write failed (the next line says how many)");
  m.sample("voxl_audit_events_dropped_total", double(h.dropped));
  m.family("voxl_audit_rotations_total", T::kCounter, "Times the audit log was rotated");
  m.sample("voxl_audit_rotations_total", double(h.rotations));
  m.family("voxl_audit_failing", T::kGauge, "1 while the audit log's last write failed");
  m.sample("voxl_audit_failing", h.failing ? 1.0 : 0.0);
}

// Batches: everything queued goes in one write. On stop, what is queued is
// written for at most kFlushLimit.
void AuditLog::run() {
  std::deque<Event> batch;
  std::chrono::steady_clock::time_point flush_until{};
  for (;;) {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_ && flush_until == std::chrono::steady_clock::time_point{})
        flush_until = std::chrono::steady_clock::now() + kFlushLimit;
      if (queue_.empty() || (stop_ && std::chrono::steady_clock::now() > flush_until)) return;
      batch.swap(queue_);
    }
    const size_t n = batch.size();
    write_batch(batch);
    batch.clear();
    {
      std::lock_guard lock(mu_);
      finished_ += n;
    }
    done_cv_.notify_all();
  }
}

void AuditLog::write_batch(std::deque<Event>& batch) {
  uint64_t carried = 0;  // lost before this batch, not yet said in a line
  {
    std::lock_guard lock(mu_);
    carried = std::exchange(unreported_drops_, 0);
  }
  uint64_t owed = carried;  // to say in the next line
  uint64_t lost = 0;        // lost in this batch
  ChainState chain = chain_;
  std::string text = cut_ ? "\n" : "";
  uint64_t lines = 0;
  std::vector<std::pair<std::string, std::string>> entries;  // the journal's: line, event
  for (Event& e : batch) {
    nlohmann::json object = {{"time", e.time}, {"event", e.name}};
    if (owed > 0) object["dropped"] = owed;
    if (e.fields.is_object())
      for (auto& [key, value] : e.fields.items())
        if (key != "seq" && key != "prev" && key != "hash" && key != "time" && key != "event" && key != "dropped")
          object[key] = std::move(value);
    auto line = chain_line(chain, json_text(object));
    if (!line) {
      ++owed;  // too long to be a line
      ++lost;
      continue;
    }
    owed = 0;
    if (options_.journal) entries.emplace_back(line->substr(0, line->size() - 1), e.name);
    else text += *line;
    ++lines;
  }
  if (options_.journal) return send_batch(entries, chain, lost, owed, carried);
  std::string error;
  if (lines > 0 && !file_.valid()) {
    file_ = platform::open_append_file(options_.path, error);
    if (file_.valid()) platform::file_size(file_.get(), size_, error);
  }
  if (lines > 0 && file_.valid()) {
    rotate_if_needed(text.size());
    if (file_.valid() && platform::write_all(file_.get(), text.data(), text.size(), error)) {
      size_ += text.size();
      cut_ = false;
      chain_ = chain;
      if (!platform::sync_file_data(file_.get(), error))
        log_->warn("--audit-log: cannot sync '{}': {}", options_.path, error);
      std::lock_guard lock(mu_);
      health_.written += lines;
      health_.dropped += lost;
      health_.failing = false;
      unreported_drops_ += owed;
      last_error_.clear();
      return;
    }
    // Cut back what was half written, or end it at the next write.
    if (file_.valid()) {
      std::string cut_error;
      cut_ = !platform::truncate_file(file_.get(), size_, cut_error);
      if (cut_) platform::file_size(file_.get(), size_, cut_error);
    }
    if (error.empty()) error = "the file could not be opened again";
    return failed("cannot write: " + error, lost + lines, carried + lost + lines);
  }
  failed("", lost, owed);
}

// Rotates when the batch would take the file past rotate_bytes (a file
// that holds nothing yet takes any batch).
void AuditLog::rotate_if_needed(uint64_t adding) {
  if (size_ == 0 || size_ + adding <= options_.rotate_bytes) return;
  file_.reset();
  std::error_code ec;
  const auto numbered = [this](int n) { return path_of(options_.path + "." + std::to_string(n)); };
  fs::remove(numbered(options_.keep), ec);
  for (int n = options_.keep - 1; n >= 1; --n) fs::rename(numbered(n), numbered(n + 1), ec);
  fs::rename(path_of(options_.path), numbered(1), ec);
  if (ec) log_->warn("--audit-log: cannot rotate '{}': {}; it grows on", options_.path, ec.message());
  std::string error;
  file_ = platform::open_append_file(options_.path, error);
  if (!file_.valid() || !platform::file_size(file_.get(), size_, error)) {
    log_->error("--audit-log: cannot open '{}' again after rotating: {}", options_.path, error);
    file_.reset();
    return;
  }
  std::lock_guard lock(mu_);
  ++health_.rotations;
}

void AuditLog::send_batch(const std::vector<std::pair<std::string, std::string>>& lines, ChainState chain,
                          uint64_t lost, uint64_t owed, uint64_t carried) {
  std::string error;
  size_t sent = 0;
  for (; sent < lines.size(); ++sent)
    if (!platform::send_to_journal(lines[sent].first,
                                   {{"SYSLOG_IDENTIFIER", "voxl-audit"}, {"PRIORITY", "5"}, {"VOXL_EVENT", lines[sent].second}},
                                   error))
      break;
  if (sent == lines.size()) chain_ = chain;
  else if (sent > 0)
    if (const auto state = last_state(lines[sent - 1].first + "\n")) chain_ = *state;  // on from the last one taken
  {
    std::lock_guard lock(mu_);
    health_.written += sent;
    if (sent == lines.size()) {
      health_.dropped += lost;
      health_.failing = false;
      unreported_drops_ += owed;
      last_error_.clear();
      return;
    }
  }
  const uint64_t unsent = lines.size() - sent;
  failed("cannot send: " + error, lost + unsent, (sent == 0 ? carried : 0) + lost + unsent);
}

std::string AuditLog::destination() const {
  return options_.journal ? std::string("--audit-journal") : "--audit-log '" + options_.path + "'";
}

void AuditLog::failed(const std::string& what, uint64_t lost, uint64_t unreported) {
  std::lock_guard lock(mu_);
  health_.dropped += lost;
  unreported_drops_ += unreported;
  if (what.empty()) return;
  health_.failing = true;
  if (what != last_error_)
    log_->error("{}: {}; events are dropped and counted until it works", destination(), what);
  last_error_ = what;
}

}  // namespace voxl::audit
