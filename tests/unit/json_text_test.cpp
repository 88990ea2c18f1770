#include "base/json_text.h"

#include <gtest/gtest.h>

#include <string>

namespace voxl {
namespace VOXL_TEST_FILE {

TEST(JsonText, WritesCompactJson) {
  EXPECT_EQ(json_text(nlohmann::json{{"a", 1}, {"b", "x"}}), R"({"a":1,"b":"x"})");
  EXPECT_EQ(json_text(nlohmann::json("é€")), "\"é€\"");
}

// Used to call itself and overflow the stack on the first error reply.
TEST(JsonText, ReplacesInvalidUtf8InsteadOfThrowing) {
  const std::string text = json_text(nlohmann::json{{"error", std::string("bad \xff\xfe byte")}});
  const auto parsed = nlohmann::json::parse(text);
  EXPECT_EQ(parsed["error"], "bad \xEF\xBF\xBD\xEF\xBF\xBD byte");
}

TEST(JsonText, ReplacesTruncatedSequences) {
  const std::string text = json_text(nlohmann::json(std::string("\xE2\x82")));
  EXPECT_FALSE(nlohmann::json::parse(text, nullptr, false).is_discarded()) << text;
}

}  // namespace
}  // namespace voxl
