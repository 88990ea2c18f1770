// The one rule for JSON numbers (base/json_number.h) over every value of
// a parsed document: what it takes is inside the range and is the value
// written; it refuses only for the reason it gives; 3 and 3.0 get the same
// answer; JsonFields agrees with it. Under UBSan, no conversion of a double
// to an integer overflows. The first byte picks the range, the rest is the
// JSON text.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_target.h"
#include "base/json_depth.h"
#include "base/json_fields.h"
#include "base/json_number.h"
#include "fuzz_check.h"

namespace VOXL_TEST_FILE {

using json = nlohmann::json;
using voxl::JsonNumberFault;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();

struct Range {
  int64_t lo, hi;
};
// The ranges the readers ask for, the edges of int64 and an empty one.
constexpr Range kRanges[] = {{kMin, kMax}, {0, kMax},       {1, kMax},   {kMin, 0},     {0, 100},
                             {-100, 100},  {1, 10},         {0, 240},    {0, 1 << 20},  {1, 1 << 20},
                             {0, 1},       {0, 0},          {1, 0},      {kMax, kMax},  {kMin, kMin},
                             {0, (int64_t(1) << 53)},       {0, 0xffffffff}, {kMax - 1, kMax}};

// The double a JSON number stands for.
double as_double(const json& v) {
  if (v.is_number_unsigned()) return double(v.get<uint64_t>());
  if (v.is_number_integer()) return double(v.get<int64_t>());
  return v.get<double>();
}

void check(const json& v, Range r) {
  int64_t out = 12345;
  const JsonNumberFault f = voxl::json_integer(v, r.lo, r.hi, out);
  FUZZ_CHECK(!voxl::json_integer_rule(f, r.lo, r.hi).empty());
  switch (f) {
    case JsonNumberFault::kNone:
      FUZZ_CHECK(v.is_number() && out >= r.lo && out <= r.hi);
      if (v.is_number_unsigned()) FUZZ_CHECK(uint64_t(out) == v.get<uint64_t>());
      else if (v.is_number_integer()) FUZZ_CHECK(out == v.get<int64_t>());
      else FUZZ_CHECK(double(out) == v.get<double>());
      break;
    case JsonNumberFault::kNotANumber:
      FUZZ_CHECK(!v.is_number() && out == 12345);
      break;
    case JsonNumberFault::kNotWhole:
      FUZZ_CHECK(v.is_number_float() && out == 12345);
      FUZZ_CHECK(!std::isfinite(v.get<double>()) || std::trunc(v.get<double>()) != v.get<double>());
      break;
    case JsonNumberFault::kOutOfRange:
      FUZZ_CHECK(v.is_number() && out == 12345);
      // Inside the range as a double only where doubles are coarser than
      // one (the edges of int64).
      if (std::fabs(as_double(v)) < 9007199254740992.0)
        FUZZ_CHECK(as_double(v) < double(r.lo) || as_double(v) > double(r.hi));
      break;
  }

  // 3.0 and 3 read alike.
  if (v.is_number_float() && std::fabs(v.get<double>()) < 9007199254740992.0 &&
      std::trunc(v.get<double>()) == v.get<double>()) {
    int64_t as_int = 0;
    const JsonNumberFault g = voxl::json_integer(json(int64_t(v.get<double>())), r.lo, r.hi, as_int);
    FUZZ_CHECK(g == f);
    if (f == JsonNumberFault::kNone) FUZZ_CHECK(as_int == out);
  }

  // JsonFields reads a field by the same rule (a copy of each scalar; an
  // array or object is never an integer).
  if (!v.is_structured()) {
    const json object = {{"k", v}};
    voxl::JsonFields fields(object);
    const auto read = fields.integer("k", r.lo, r.hi);
    FUZZ_CHECK(read.has_value() == (f == JsonNumberFault::kNone) && fields.ok() == read.has_value());
    if (read) FUZZ_CHECK(*read == out);
  }

  // Numbers: finite and inside, or refused.
  double d = -1;
  const double lo = double(r.lo), hi = double(r.hi);
  const JsonNumberFault n = voxl::json_number(v, lo, hi, d);
  if (n == JsonNumberFault::kNone) FUZZ_CHECK(v.is_number() && std::isfinite(d) && d >= lo && d <= hi);
  if (!v.is_number()) FUZZ_CHECK(n == JsonNumberFault::kNotANumber);
  FUZZ_CHECK(n != JsonNumberFault::kNotWhole);
  // A whole number taken as an integer is also taken as a number.
  if (f == JsonNumberFault::kNone) FUZZ_CHECK(n == JsonNumberFault::kNone);
}

}  // namespace

VOXL_FUZZ_TARGET(json_number) {
  if (size < 1) return 0;
  const Range r = kRanges[data[0] % std::size(kRanges)];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (!voxl::json_depth_within(text, 32)) return 0;
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return 0;
  // Every value, without recursion.
  std::vector<const json*> todo = {&doc};
  while (!todo.empty()) {
    const json* v = todo.back();
    todo.pop_back();
    check(*v, r);
    if (v->is_structured())
      for (const json& child : *v) todo.push_back(&child);
  }
  return 0;
}
