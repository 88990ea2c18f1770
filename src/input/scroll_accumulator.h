// Turns smooth (pixel) and fractional wheel deltas into whole notches, the
// only kind a core X11 wheel has. `px_per_notch` desktop pixels make one
// notch; what is left over carries to the next delta on the same axis, and
// is dropped when the direction reverses (so a flick back is not eaten by
// the remainder of the flick before). Pure logic; one owner thread.
#pragma once

namespace voxl::input {

struct Notches {
  int dx = 0;  // positive: right
  int dy = 0;  // positive: down
};

class ScrollAccumulator {
 public:
  explicit ScrollAccumulator(double px_per_notch) : px_per_notch_(px_per_notch > 0 ? px_per_notch : 1) {}

  Notches add_pixels(double dx, double dy) { return add_notches(dx / px_per_notch_, dy / px_per_notch_); }
  Notches add_notches(double dx, double dy) { return {take(acc_x_, dx), take(acc_y_, dy)}; }
  void reset() { acc_x_ = acc_y_ = 0; }

  double px_per_notch() const { return px_per_notch_; }

 private:
  static int take(double& acc, double d);

  double px_per_notch_;
  double acc_x_ = 0;
  double acc_y_ = 0;
};

}  // namespace voxl::input
