#include "endpoints/record_budget.h"

#include <algorithm>

namespace voxl::endpoints {

RecordBudget::Verdict RecordBudget::can_start(std::optional<uint64_t> free) const {
  if (used_ >= limits_.max_total_bytes) return Verdict::kCapReached;
  if (free && *free < limits_.min_free_bytes) return Verdict::kLowDisk;
  return Verdict::kOk;
}

RecordBudget::Verdict RecordBudget::take(uint64_t bytes) {
  if (bytes > limits_.max_total_bytes - std::min(used_, limits_.max_total_bytes)) return Verdict::kCapReached;
  used_ += bytes;
  since_check_ += bytes;
  return Verdict::kOk;
}

RecordBudget::Verdict RecordBudget::check_free(std::optional<uint64_t> free) {
  since_check_ = 0;
  return free && *free < limits_.min_free_bytes ? Verdict::kLowDisk : Verdict::kOk;
}

bool RecordBudget::start_free_check() {
  if (!free_check_due()) return false;
  since_check_ = 0;
  return true;
}

void RecordBudget::give_back(uint64_t bytes) { used_ -= std::min(used_, bytes); }

}  // namespace voxl::endpoints
