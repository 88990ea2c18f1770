// Which packets a lossy link loses: the Gilbert-Elliott model, a link that
// is either good (loses nothing) or bad (loses every packet), moving between
// the two states once per packet. It is set by what is measured on real
// links: the mean loss rate and the mean length of a run of lost packets
// (a burst). A mean burst of 1 asks for independent (Bernoulli) loss, whose
// bursts are then 1 / (1 - loss) long on average.
//
// With p the chance to go bad from good and r the chance to go good from
// bad, the mean burst is 1 / r and the share of time spent bad, which is
// the loss rate, is p / (p + r); so r = 1 / burst and p = r * loss / (1 - loss).
//
// Deterministic: the same seed loses the same packets. Pure logic; one
// thread at a time.
#pragma once

#include <cstdint>
#include <random>

namespace voxl::bench {

class LossModel {
 public:
  // `loss` in [0, 1), `mean_burst` >= 1 (packets).
  LossModel(double loss, double mean_burst, uint64_t seed);

  // Whether the next packet is lost.
  bool lose();

 private:
  double loss_;
  bool independent_;
  double to_bad_;   // p
  double to_good_;  // r
  bool bad_ = false;
  std::mt19937_64 random_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
};

}  // namespace voxl::bench
