#include "base/metrics_text.h"

#include <gtest/gtest.h>

#include <limits>

namespace voxl {
namespace VOXL_TEST_FILE {

TEST(MetricsText, FamiliesAndSamplesInTheTextFormat) {
  MetricsText m;
  m.family("voxl_things_total", MetricsText::Type::kCounter, "Things\\seen\nso far");
  m.sample("voxl_things_total", {{"kind", "a\"b\\c\nd"}, {"rung", "0"}}, 3);
  m.sample("voxl_things_total", 0.25);
  m.family("voxl_level", MetricsText::Type::kGauge, "A level");
  m.sample("voxl_level", 1e21);
  EXPECT_EQ(m.text(),
            "# HELP voxl_things_total Things\\\\seen\\nso far\n"
            "# TYPE voxl_things_total counter\n"
            "voxl_things_total{kind=\"a\\\"b\\\\c\\nd\",rung=\"0\"} 3\n"
            "voxl_things_total 0.25\n"
            "# HELP voxl_level A level\n"
            "# TYPE voxl_level gauge\n"
            "voxl_level 1e+21\n");
}

TEST(MetricsText, NumbersRoundTripAndSpecialValuesHaveTheirNames) {
  EXPECT_EQ(metric_number(0), "0");
  EXPECT_EQ(metric_number(123456789012), "123456789012");
  EXPECT_EQ(metric_number(0.1), "0.1");
  EXPECT_EQ(metric_number(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(metric_number(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(metric_number(std::numeric_limits<double>::quiet_NaN()), "NaN");
}

TEST(MetricsText, HistogramBucketsAreCumulativeWithTheBoundIncluded) {
  Histogram h({0.5, 0.125, 1});  // bounds are sorted
  for (double v : {0.0625, 0.125, 0.25, 0.5, 0.75, 3.0}) h.observe(v);
  h.observe(std::numeric_limits<double>::quiet_NaN());  // ignored
  EXPECT_EQ(h.count(), 6u);
  EXPECT_DOUBLE_EQ(h.sum(), 4.6875);
  MetricsText m;
  m.family("t_seconds", MetricsText::Type::kHistogram, "T");
  m.histogram("t_seconds", {{"stage", "x"}}, h);
  EXPECT_EQ(m.text(),
            "# HELP t_seconds T\n"
            "# TYPE t_seconds histogram\n"
            "t_seconds_bucket{stage=\"x\",le=\"0.125\"} 2\n"
            "t_seconds_bucket{stage=\"x\",le=\"0.5\"} 4\n"
            "t_seconds_bucket{stage=\"x\",le=\"1\"} 5\n"
            "t_seconds_bucket{stage=\"x\",le=\"+Inf\"} 6\n"
            "t_seconds_sum{stage=\"x\"} 4.6875\n"
            "t_seconds_count{stage=\"x\"} 6\n");
}

}  // namespace
}  // namespace voxl
