// JsonFields, json_depth_within and TokenBucket: the checks every viewer
// message goes through.
#include "base/json_fields.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/json_depth.h"
#include "base/token_bucket.h"

namespace voxl {
namespace {

using json = nlohmann::json;

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
