// JsonFields, json_depth_within and TokenBucket: the checks every viewer
// message goes through; and the one rule for JSON numbers
// (base/json_number.h) that JsonFields and every other argument reader use.
#include "base/json_fields.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/json_depth.h"
#include "base/json_number.h"
#include "base/token_bucket.h"

namespace voxl {
namespace VOXL_TEST_FILE {

using json = nlohmann::json;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();

TEST(JsonFields, AbsentFieldsAreNotBad) {
  const json m = json::object();
  JsonFields f(m);
  EXPECT_FALSE(f.number("t", 0, 1));
  EXPECT_FALSE(f.integer("id", 0, 1));
  EXPECT_FALSE(f.boolean("on"));
  EXPECT_FALSE(f.string("s", 10));
  EXPECT_TRUE(f.ok());
  EXPECT_EQ(f.bad_field(), nullptr);
}

TEST(JsonFields, WrongTypesAreBadAndDoNotThrow) {
  const json m = json::parse(R"({"t":"x","enabled":1,"id":"7","s":5,"n":null,"o":{},"a":[]})");
  JsonFields f(m);
  EXPECT_FALSE(f.number("t", -1e9, 1e9));
  EXPECT_STREQ(f.bad_field(), "t");
  EXPECT_FALSE(f.boolean("enabled"));
  EXPECT_FALSE(f.integer("id", 0, 10));
  EXPECT_FALSE(f.string("s", 10));
  EXPECT_FALSE(f.number("n", 0, 1));
  EXPECT_FALSE(f.boolean("o"));
  EXPECT_FALSE(f.string("a", 10));
  EXPECT_FALSE(f.ok());
  EXPECT_STREQ(f.bad_field(), "t") << "the first bad field is kept";
}

TEST(JsonFields, NumbersAreFiniteAndInRange) {
  const json m = json::parse(R"({"a":1.5,"b":-3,"c":1e300,"d":18446744073709551615,"e":2})");
  JsonFields f(m);
  EXPECT_EQ(f.number("a", 0, 2), 1.5);
  EXPECT_EQ(f.number("b", -5, 0), -3.0);
  EXPECT_TRUE(f.ok());
  EXPECT_FALSE(f.number("e", 0, 1));
  EXPECT_STREQ(f.bad_field(), "e");
  JsonFields g(m);
  EXPECT_FALSE(g.number("c", -1e15, 1e15));
  JsonFields h(m);
  EXPECT_FALSE(h.number("d", 0, 1e6));
  json inf = json::object();
  inf["x"] = std::numeric_limits<double>::infinity();
  inf["y"] = std::nan("");
  JsonFields i(inf);
  EXPECT_FALSE(i.number("x", -1e300, 1e300));
  EXPECT_FALSE(i.number("y", -1e300, 1e300));
  EXPECT_FALSE(i.ok());
}

TEST(JsonFields, IntegersAreWholeAndInRange) {
  const json m = json::parse(R"({"a":7,"b":3.0,"c":3.5,"d":-1,"e":4294967296,"f":18446744073709551615})");
  JsonFields f(m);
  EXPECT_EQ(f.integer("a", 0, 10), 7);
  EXPECT_EQ(f.integer("b", 0, 10), 3);
  EXPECT_EQ(f.integer("d", -1, 10), -1);
  EXPECT_TRUE(f.ok());
  EXPECT_FALSE(JsonFields(m).integer("c", 0, 10));
  EXPECT_FALSE(JsonFields(m).integer("d", 0, 10));
  EXPECT_FALSE(JsonFields(m).integer("e", 0, 0xffffffff));
  EXPECT_FALSE(JsonFields(m).integer("f", 0, std::numeric_limits<int64_t>::max()));
}

// The one integer rule (base/json_number.h) as JsonFields applies it.
TEST(JsonFields, IntegersFollowTheOneRule) {
  const json m = json::parse(R"({"three":3,"three_f":3.0,"zero":-0.0,"half":3.5,"huge_f":1e300,"yes":true,
                                 "text":"3","int64_max":9223372036854775807,"beyond":9223372036854775808,
                                 "uint64_max":18446744073709551615,"int64_min":-9223372036854775808,
                                 "below":-9223372036854775809,"two63_f":9223372036854775807.0,"e":1e2})");
  const auto read = [&m](const char* key, int64_t lo, int64_t hi) {
    JsonFields f(m);
    const auto v = f.integer(key, lo, hi);
    EXPECT_EQ(f.ok(), v.has_value()) << key;
    return v;
  };
  EXPECT_EQ(read("three", 0, 10), 3);
  EXPECT_EQ(read("three_f", 0, 10), 3);
  EXPECT_EQ(read("zero", 0, 10), 0);
  EXPECT_EQ(read("e", 0, 100), 100);
  EXPECT_EQ(read("half", 0, 10), std::nullopt);
  EXPECT_EQ(read("half", kMin, kMax), std::nullopt);
  EXPECT_EQ(read("huge_f", kMin, kMax), std::nullopt) << "1e300 is whole, but no int64";
  EXPECT_EQ(read("yes", 0, 10), std::nullopt) << "a boolean is no number";
  EXPECT_EQ(read("text", 0, 10), std::nullopt) << "nor is a string of digits";
  EXPECT_EQ(read("int64_max", kMin, kMax), kMax);
  EXPECT_EQ(read("int64_max", 0, kMax - 1), std::nullopt);
  EXPECT_EQ(read("beyond", kMin, kMax), std::nullopt);
  EXPECT_EQ(read("uint64_max", kMin, kMax), std::nullopt);
  EXPECT_EQ(read("int64_min", kMin, kMax), kMin);
  EXPECT_EQ(read("int64_min", kMin + 1, kMax), std::nullopt);
  // Too big for 64 bits, so parsed as a double (-2^63 - 1 rounds to -2^63):
  // a double is taken only strictly inside +-2^63.
  EXPECT_EQ(read("below", kMin, kMax), std::nullopt);
  // 9223372036854775807.0 is the double 2^63: whole, and one past int64.
  EXPECT_EQ(read("two63_f", kMin, kMax), std::nullopt);
  EXPECT_EQ(read("two63_f", 0, kMax), std::nullopt);
}

TEST(JsonFields, NumbersAreNeverBooleansOrStrings) {
  const json m = json::parse(R"({"yes":true,"no":false,"text":"3","zero":-0.0,"big":18446744073709551615})");
  EXPECT_EQ(JsonFields(m).number("yes", -10, 10), std::nullopt);
  EXPECT_EQ(JsonFields(m).number("no", -10, 10), std::nullopt);
  EXPECT_EQ(JsonFields(m).number("text", -10, 10), std::nullopt);
  EXPECT_EQ(JsonFields(m).number("zero", 0, 10), 0.0);
  EXPECT_EQ(JsonFields(m).number("big", 0, 2e19), 18446744073709551615.0);
}

// The rule itself, value by value, with the fault each refusal gives.
TEST(JsonNumber, IntegersAreWholeNumbersInRange) {
  using F = JsonNumberFault;
  const auto fault = [](const char* text, int64_t lo = kMin, int64_t hi = kMax) {
    int64_t out = -42;
    const F f = json_integer(json::parse(text), lo, hi, out);
    EXPECT_TRUE(f == F::kNone || out == -42) << text << ": left alone on a fault";
    return f;
  };
  const auto value = [](const char* text, int64_t lo = kMin, int64_t hi = kMax) {
    int64_t out = -42;
    EXPECT_EQ(json_integer(json::parse(text), lo, hi, out), F::kNone) << text;
    return out;
  };
  EXPECT_EQ(value("3"), 3);
  EXPECT_EQ(value("3.0"), 3);
  EXPECT_EQ(value("3e0"), 3);
  EXPECT_EQ(value("0.3e1"), 3);
  EXPECT_EQ(value("-0.0"), 0);
  EXPECT_EQ(value("-3.0"), -3);
  EXPECT_EQ(value("9223372036854775807"), kMax);
  EXPECT_EQ(value("-9223372036854775808"), kMin);
  EXPECT_EQ(value("4503599627370497.0"), 4503599627370497) << "whole doubles below 2^53 are exact";
  EXPECT_EQ(fault("3.5"), F::kNotWhole);
  EXPECT_EQ(fault("-0.5"), F::kNotWhole);
  EXPECT_EQ(fault("1e-300"), F::kNotWhole);
  EXPECT_EQ(fault("true"), F::kNotANumber);
  EXPECT_EQ(fault("false"), F::kNotANumber);
  EXPECT_EQ(fault("\"3\""), F::kNotANumber);
  EXPECT_EQ(fault("null"), F::kNotANumber);
  EXPECT_EQ(fault("[3]"), F::kNotANumber);
  EXPECT_EQ(fault("{}"), F::kNotANumber);
  EXPECT_EQ(fault("1e300"), F::kOutOfRange);
  EXPECT_EQ(fault("-1e300"), F::kOutOfRange);
  EXPECT_EQ(fault("9223372036854775808"), F::kOutOfRange);
  EXPECT_EQ(fault("18446744073709551615"), F::kOutOfRange);
  EXPECT_EQ(fault("9223372036854775807.0"), F::kOutOfRange) << "the double 2^63";
  EXPECT_EQ(fault("-9223372036854775809"), F::kOutOfRange) << "the double -2^63";
  EXPECT_EQ(fault("11", 0, 10), F::kOutOfRange);
  EXPECT_EQ(fault("10.0", 0, 9), F::kOutOfRange);
  EXPECT_EQ(fault("-1", 0, 10), F::kOutOfRange);
  EXPECT_EQ(fault("3.5", 0, 1), F::kNotWhole) << "a fraction is named before the range";
  EXPECT_EQ(value("10.0", 0, 10), 10);
  EXPECT_EQ(value("0", 0, 0), 0);
  EXPECT_EQ(fault("0", 1, 0), F::kOutOfRange) << "an empty range takes nothing";
  // Not from the parser, but a json can hold them.
  int64_t out = 0;
  EXPECT_EQ(json_integer(json(std::nan("")), kMin, kMax, out), F::kNotWhole);
  EXPECT_EQ(json_integer(json(std::numeric_limits<double>::infinity()), kMin, kMax, out), F::kNotWhole);
}

TEST(JsonNumber, NumbersAreFiniteAndInRange) {
  using F = JsonNumberFault;
  double out = -42;
  EXPECT_EQ(json_number(json::parse("3.5"), 0, 10, out), F::kNone);
  EXPECT_EQ(out, 3.5);
  EXPECT_EQ(json_number(json::parse("18446744073709551615"), 0, 2e19, out), F::kNone);
  EXPECT_EQ(out, 18446744073709551615.0);
  EXPECT_EQ(json_number(json::parse("-7"), -10, 10, out), F::kNone);
  EXPECT_EQ(out, -7.0);
  out = -42;
  EXPECT_EQ(json_number(json::parse("true"), 0, 10, out), F::kNotANumber);
  EXPECT_EQ(json_number(json::parse("\"3\""), 0, 10, out), F::kNotANumber);
  EXPECT_EQ(json_number(json(std::nan("")), -1e300, 1e300, out), F::kNotANumber);
  EXPECT_EQ(json_number(json(-std::numeric_limits<double>::infinity()), -HUGE_VAL, HUGE_VAL, out), F::kNotANumber);
  EXPECT_EQ(json_number(json::parse("1e300"), -1e15, 1e15, out), F::kOutOfRange);
  EXPECT_EQ(out, -42) << "left alone on a fault";
}

TEST(JsonNumber, TheRuleInWords) {
  using F = JsonNumberFault;
  EXPECT_EQ(json_integer_rule(F::kNotWhole, 0, 10), "must be a whole number");
  EXPECT_EQ(json_integer_rule(F::kNotANumber, 0, 10), "must be a whole number");
  EXPECT_EQ(json_integer_rule(F::kOutOfRange, -100, 100), "must be between -100 and 100");
  EXPECT_EQ(json_integer_rule(F::kOutOfRange, 1, kMax), "must be a whole number of at least 1");
  EXPECT_EQ(json_integer_rule(F::kOutOfRange, kMin, 0), "must be a whole number of at most 0");
}

TEST(JsonFields, StringsHaveAMaximumLength) {
  const json m = json::parse(R"({"s":"abcd"})");
  EXPECT_EQ(JsonFields(m).string("s", 4), "abcd");
  JsonFields f(m);
  EXPECT_FALSE(f.string("s", 3));
  EXPECT_STREQ(f.bad_field(), "s");
}

TEST(JsonFields, NonObjectsHaveNoFields) {
  for (const char* text : {"[1,2]", "3", "\"x\"", "null"}) {
    const json m = json::parse(text);
    JsonFields f(m);
    EXPECT_FALSE(f.number("t", 0, 1)) << text;
    EXPECT_TRUE(f.ok()) << text;
  }
}

TEST(JsonDepth, CountsBracketsOutsideStrings) {
  EXPECT_TRUE(json_depth_within("{}", 1));
  EXPECT_FALSE(json_depth_within("{\"a\":[]}", 1));
  EXPECT_TRUE(json_depth_within("{\"a\":[]}", 2));
  EXPECT_TRUE(json_depth_within(R"({"a":"[[[[[[[[[["})", 1)) << "brackets in strings do not count";
  EXPECT_TRUE(json_depth_within(R"({"a":"\"[[[[\\"})", 1)) << "escaped quotes do not end the string";
  EXPECT_FALSE(json_depth_within(R"({"a":"\\"[[})", 2)) << "an escaped backslash does end it";
  EXPECT_TRUE(json_depth_within("[][][][]", 1)) << "depth, not count";
}

TEST(JsonDepth, AMillionOpenBracketsAreRefusedWithoutRecursion) {
  const std::string deep(1'000'000, '[');
  EXPECT_FALSE(json_depth_within(deep, 16));
  EXPECT_TRUE(json_depth_within(std::string(16, '[') + std::string(16, ']'), 16));
  EXPECT_FALSE(json_depth_within(std::string(17, '[') + std::string(17, ']'), 16));
}

TEST(TokenBucket, BurstThenOnePerRefill) {
  using namespace std::chrono_literals;
  TokenBucket b(3, 2s);
  const TokenBucket::Clock::time_point t0{} ;
  EXPECT_TRUE(b.take(t0));
  EXPECT_TRUE(b.take(t0));
  EXPECT_TRUE(b.take(t0));
  EXPECT_FALSE(b.take(t0));
  EXPECT_FALSE(b.take(t0 + 1900ms));
  EXPECT_TRUE(b.take(t0 + 2s));
  EXPECT_FALSE(b.take(t0 + 3s));
  EXPECT_TRUE(b.available(t0 + 4s));
  EXPECT_TRUE(b.take(t0 + 4s));
  // A long quiet spell refills the burst, not more.
  EXPECT_TRUE(b.take(t0 + 100s));
  EXPECT_TRUE(b.take(t0 + 100s));
  EXPECT_TRUE(b.take(t0 + 100s));
  EXPECT_FALSE(b.take(t0 + 100s));
  EXPECT_FALSE(b.take(t0 + 50s)) << "time going backwards gives nothing";
}

}  // namespace
}  // namespace voxl
