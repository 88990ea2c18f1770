// The Prometheus text exposition format (version 0.0.4), written: metric
// families with their HELP and TYPE lines, samples with labels, and
// histograms with fixed buckets. voxl writes it itself rather than take
// prometheus-cpp: the format is a few lines of text, and the library is
// not there for the Windows build. Pure; one owner.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace voxl {

// Observations counted into fixed buckets (upper bounds, ascending), with
// their sum: a Prometheus histogram. One owner; not thread-safe.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void observe(double value);
  const std::vector<double>& bounds() const { return bounds_; }
  // Per bucket (not cumulative); the last is above every bound.
  const std::vector<uint64_t>& counts() const { return counts_; }
  double sum() const { return sum_; }
  uint64_t count() const { return count_; }

 private:
  std::vector<double> bounds_;
  std::vector<uint64_t> counts_;
  double sum_ = 0;
  uint64_t count_ = 0;
};

using MetricLabels = std::initializer_list<std::pair<std::string_view, std::string_view>>;

class MetricsText {
 public:
  enum class Type { kCounter, kGauge, kHistogram };

  // Starts a family; its samples must follow before the next family. Names
  // and help are the caller's constants (names [a-zA-Z_:][a-zA-Z0-9_:]*).
  void family(std::string_view name, Type type, std::string_view help);
  // A sample of the current family (a counter's name ends in _total).
  void sample(std::string_view name, MetricLabels labels, double value);
  void sample(std::string_view name, double value) { sample(name, {}, value); }
  // The _bucket, _sum and _count samples of a histogram family `name`.
  void histogram(std::string_view name, MetricLabels labels, const Histogram& h);

  const std::string& text() const { return text_; }

 private:
  void labels(MetricLabels labels, std::string_view le = {});
  std::string text_;
};

// A number as the format writes it: shortest round-trip form, +Inf, -Inf
// or NaN.
std::string metric_number(double v);

}  // namespace voxl
