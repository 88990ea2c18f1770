#include "input/scroll_accumulator.h"

#include <algorithm>
#include <cmath>

namespace voxl::input {

int ScrollAccumulator::take(double& acc, double d) {
  if (!std::isfinite(d) || d == 0) return 0;
  if ((acc > 0 && d < 0) || (acc < 0 && d > 0)) acc = 0;
  acc += d;
  // A little slack so that 3 x (1/3) notch makes one notch, not 0.999...
  constexpr double kSlack = 1e-9;
  const double whole = acc > 0 ? std::floor(acc + kSlack) : std::ceil(acc - kSlack);
  // One message never scrolls the desktop by more than this many notches.
  constexpr double kMaxNotches = 100;
  acc -= whole;
  if (std::fabs(acc) < kSlack) acc = 0;
  return int(std::clamp(whole, -kMaxNotches, kMaxNotches));
}

}  // namespace voxl::input
