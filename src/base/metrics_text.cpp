#include "base/metrics_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace voxl {

Histogram::Histogram(std::vector<double> bounds) : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {
  std::sort(bounds_.begin(), bounds_.end());
}

void Histogram::observe(double value) {
  if (std::isnan(value)) return;
  const auto at = std::lower_bound(bounds_.begin(), bounds_.end(), value);
  ++counts_[size_t(at - bounds_.begin())];
  sum_ += value;
  ++count_;
}

std::string metric_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

void MetricsText::family(std::string_view name, Type type, std::string_view help) {
  text_ += "# HELP ";
  text_ += name;
  text_ += ' ';
  // In HELP only backslash and newline are escaped.
  for (char c : help) {
    if (c == '\\') text_ += "\\\\";
    else if (c == '\n') text_ += "\\n";
    else text_ += c;
  }
  text_ += "\n# TYPE ";
  text_ += name;
  text_ += type == Type::kCounter ? " counter\n" : type == Type::kGauge ? " gauge\n" : " histogram\n";
}

void MetricsText::labels(MetricLabels labels, std::string_view le) {
  if (labels.size() == 0 && le.empty()) return;
  text_ += '{';
  bool first = true;
  const auto one = [&](std::string_view key, std::string_view value) {
    if (!first) text_ += ',';
    first = false;
    text_ += key;
    text_ += "=\"";
    for (char c : value) {
      if (c == '\\') text_ += "\\\\";
      else if (c == '"') text_ += "\\\"";
      else if (c == '\n') text_ += "\\n";
      else text_ += c;
    }
    text_ += '"';
  };
  for (const auto& [key, value] : labels) one(key, value);
  if (!le.empty()) one("le", le);
  text_ += '}';
}

void MetricsText::sample(std::string_view name, MetricLabels l, double value) {
  text_ += name;
  labels(l);
  text_ += ' ';
  text_ += metric_number(value);
  text_ += '\n';
}

void MetricsText::histogram(std::string_view name, MetricLabels l, const Histogram& h) {
  const std::string bucket = std::string(name) + "_bucket";
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= h.bounds().size(); ++i) {
    cumulative += h.counts()[i];
    text_ += bucket;
    labels(l, i < h.bounds().size() ? metric_number(h.bounds()[i]) : "+Inf");
    text_ += ' ';
    text_ += std::to_string(cumulative);
    text_ += '\n';
  }
  sample(std::string(name) + "_sum", l, h.sum());
  sample(std::string(name) + "_count", l, double(h.count()));
}

}  // namespace voxl
