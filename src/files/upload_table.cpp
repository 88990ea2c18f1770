#include "files/upload_table.h"

namespace voxl::files {

bool UploadTable::add(Upload upload) {
  if (full()) return false;
  const std::string id = upload.id;
  return uploads_.emplace(id, std::move(upload)).second;
}

Upload* UploadTable::find(const std::string& id) {
  const auto it = uploads_.find(id);
  return it == uploads_.end() ? nullptr : &it->second;
}

void UploadTable::remove(const std::string& id) { uploads_.erase(id); }

UploadTable::Verdict UploadTable::check_chunk(const std::string& id, uint64_t offset, uint64_t n) const {
  const auto it = uploads_.find(id);
  if (it == uploads_.end()) return Verdict::kUnknown;
  const Upload& u = it->second;
  if (u.cancelled) return Verdict::kUnknown;
  if (u.busy) return Verdict::kBusy;
  if (offset != u.offset) return Verdict::kWrongOffset;
  if (n > u.size - u.offset) return Verdict::kPastEnd;
  return Verdict::kOk;
}

void UploadTable::advance(Upload& upload, uint64_t n, Clock::time_point now) {
  upload.offset += n;
  upload.touched = now;
}

uint64_t UploadTable::outstanding_bytes() const {
  uint64_t sum = 0;
  for (const auto& [id, u] : uploads_) sum += u.size - u.offset;
  return sum;
}

std::vector<Upload> UploadTable::expire(Clock::time_point now) {
  std::vector<Upload> out;
  for (auto it = uploads_.begin(); it != uploads_.end();) {
    if (!it->second.busy && now - it->second.touched >= expiry_) {
      out.push_back(std::move(it->second));
      it = uploads_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

std::optional<UploadTable::Clock::time_point> UploadTable::next_expiry() const {
  std::optional<Clock::time_point> next;
  for (const auto& [id, u] : uploads_) {
    const auto at = u.touched + expiry_;
    if (!next || at < *next) next = at;
  }
  return next;
}

}  // namespace voxl::files
