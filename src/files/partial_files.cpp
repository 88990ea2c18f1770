#include "files/files_state.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "files/relative_path.h"

namespace voxl::files {

using platform::FileInfo;

namespace {

constexpr size_t kMaxOwedRemovals = 4096;
constexpr auto kRemovalRetry = std::chrono::milliseconds(250);

}  // namespace

void FilesService::State::remove_partial(const std::string& partial) {
  if (removals_owed.empty() && submit_removal(partial)) return;
  if (removals_owed.size() >= kMaxOwedRemovals) {
    log->warn("cannot remove the partial file '{}' now: the disk is busy; the next start removes it", partial);
    return;
  }
  removals_owed.push_back(partial);
  arm_removal_retry();
}

bool FilesService::State::submit_removal(const std::string& partial) {
  auto* jail_ptr = jail.get();
  return worker->submit([jail_ptr, partial] { (void)jail_ptr->remove(partial); });
}

void FilesService::State::arm_removal_retry() {
  if (removal_retry_armed) return;
  removal_retry_armed = true;
  removal_timer.expires_after(kRemovalRetry);
  std::weak_ptr<State> weak = shared_from_this();
  removal_timer.async_wait([weak](const boost::system::error_code& ec) {
    if (ec) return;
    auto self = weak.lock();
    if (!self || !self->worker) return;
    self->removal_retry_armed = false;
    while (!self->removals_owed.empty() && self->submit_removal(self->removals_owed.front()))
      self->removals_owed.pop_front();
    if (!self->removals_owed.empty()) self->arm_removal_retry();
  });
}

void FilesService::State::settle_removals() {
  for (const auto& partial : removals_owed) (void)jail->remove(partial);
  removals_owed.clear();
}

void FilesService::State::arm_expiry() {
  const auto next = uploads.next_expiry();
  if (!next) return;
  // One that is due but busy writing waits for its write: look again in
  // a second rather than at once.
  expiry_timer.expires_at(std::max(*next, UploadTable::Clock::now() + std::chrono::seconds(1)));
  std::weak_ptr<State> weak = shared_from_this();
  expiry_timer.async_wait([weak](const boost::system::error_code& ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->on_expiry();
  });
}

void FilesService::State::on_expiry() {
  for (Upload& u : uploads.expire(UploadTable::Clock::now())) {
    log->info("upload of '{}' expired after {} of {} bytes; its partial file is removed", u.target, u.offset, u.size);
    remove_partial(u.partial);
  }
  arm_expiry();
}

void FilesService::State::sweep_orphans() {
  auto* jail_ptr = jail.get();
  const std::string dir = options.upload_dir;
  const auto expiry = options.upload_expiry;
  worker->submit([jail_ptr, dir, expiry] {
    std::vector<platform::DirEntry> entries;
    bool truncated = false;
    if (!jail_ptr->list(dir, 100000, entries, truncated)) return;
    const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    const int64_t max_age = std::chrono::duration_cast<std::chrono::milliseconds>(expiry).count();
    for (const auto& e : entries)
      if (e.name.starts_with(kPartialPrefix) && e.name.ends_with(".part") &&
          e.info.kind == FileInfo::Kind::kFile && now_ms - e.info.modified_ms > max_age)
        (void)jail_ptr->remove(join_path(dir, e.name));
  });
}
}  // namespace voxl::files
