#include "loss_model.h"

#include <algorithm>

namespace voxl::bench {

LossModel::LossModel(double loss, double mean_burst, uint64_t seed) : random_(seed) {
  loss = std::clamp(loss, 0.0, 0.999);
  mean_burst = std::max(1.0, mean_burst);
  loss_ = loss;
  independent_ = mean_burst <= 1.0;
  to_good_ = 1.0 / mean_burst;
  to_bad_ = loss <= 0 ? 0 : to_good_ * loss / (1 - loss);
  // Start where the chain spends its time, so a short run has the rate too.
  bad_ = loss > 0 && unit_(random_) < loss;
}

bool LossModel::lose() {
  if (loss_ <= 0) return false;
  if (independent_) return unit_(random_) < loss_;
  // The state this packet meets, then the move for the next one.
  const bool lost = bad_;
  bad_ = bad_ ? unit_(random_) >= to_good_ : unit_(random_) < to_bad_;
  return lost;
}

}  // namespace voxl::bench
