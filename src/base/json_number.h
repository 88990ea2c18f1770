// The one rule for reading a number out of untrusted JSON, shared by every
// reader of JSON arguments (JsonFields for viewers' messages, POST /input,
// POST /computer, the MCP tools):
// - only a JSON number is a number: true, "3" and null are none;
// - a number is an integer when its value is whole, however it is written:
//   3, 3.0, 3e0 and 0.3e1 are all 3, and -0.0 is 0; 3.5 is none. A number
//   written with a fraction or an exponent (or too big for 64 bits) has
//   been parsed to a double, so it is read at double precision and taken
//   only strictly inside +-2^63;
// - an integer outside the range asked for is refused, also when it is
//   whole (1e300, 18446744073709551615 for an int64);
// - a number is finite and inside its range.
// A reader names the field and says what it must be with
// json_integer_rule(): "must be a whole number", "must be between 1 and
// 10".
//
// Header-only, no state: any thread. Nothing throws but json_integer_rule
// (out of memory).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace voxl {

// Why a JSON value is not the number asked for.
enum class JsonNumberFault {
  kNone,
  kNotANumber,  // not a JSON number at all (or, for json_number, not finite)
  kNotWhole,    // a number with a fraction where an integer is asked for
  kOutOfRange,  // outside [lo, hi]
};

// `v` as an integer in [lo, hi] into `out` (left alone on a fault).
inline JsonNumberFault json_integer(const nlohmann::json& v, int64_t lo, int64_t hi, int64_t& out) noexcept {
  int64_t n = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > uint64_t(std::numeric_limits<int64_t>::max())) return JsonNumberFault::kOutOfRange;
    n = int64_t(u);
  } else if (v.is_number_integer()) {
    n = v.get<int64_t>();
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::trunc(d)) return JsonNumberFault::kNotWhole;
    // 2^63 is exact as a double; every whole double strictly inside it
    // converts to int64 without loss.
    constexpr double kTwo63 = 9223372036854775808.0;
    if (d <= -kTwo63 || d >= kTwo63) return JsonNumberFault::kOutOfRange;
    n = int64_t(d);
  } else {
    return JsonNumberFault::kNotANumber;
  }
  if (n < lo || n > hi) return JsonNumberFault::kOutOfRange;
  out = n;
  return JsonNumberFault::kNone;
}

// `v` as a finite number in [lo, hi] into `out` (left alone on a fault).
inline JsonNumberFault json_number(const nlohmann::json& v, double lo, double hi, double& out) noexcept {
  double d = 0;
  if (v.is_number_unsigned()) d = double(v.get<uint64_t>());
  else if (v.is_number_integer()) d = double(v.get<int64_t>());
  else if (v.is_number_float()) d = v.get<double>();
  else return JsonNumberFault::kNotANumber;
  if (!std::isfinite(d)) return JsonNumberFault::kNotANumber;
  if (d < lo || d > hi) return JsonNumberFault::kOutOfRange;
  out = d;
  return JsonNumberFault::kNone;
}

// What an integer argument in [lo, hi] must be, after its name, for a
// `fault` of json_integer(): "must be a whole number", "must be between 0
// and 100" ("at least 1" when hi is the largest int64).
inline std::string json_integer_rule(JsonNumberFault fault, int64_t lo, int64_t hi) {
  if (fault != JsonNumberFault::kOutOfRange) return "must be a whole number";
  if (hi == std::numeric_limits<int64_t>::max()) return "must be a whole number of at least " + std::to_string(lo);
  if (lo == std::numeric_limits<int64_t>::min()) return "must be a whole number of at most " + std::to_string(hi);
  return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
}

}  // namespace voxl
