// The audit log's hash chain: lines made by chain_line check; an edited,
// removed, added, moved or cut-off line is found, with its number and why.
#include "audit/audit_chain.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace voxl::audit {
namespace VOXL_TEST_FILE {

std::vector<std::string> three(ChainState& s) {
  std::vector<std::string> out;
  for (const char* o : {R"({"event":"sign_in","user":"alice"})", R"({"event":"connect","viewer":1})",
                        R"({"event":"leave","viewer":1})"})
    out.push_back(*chain_line(s, o));
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string t;
  for (const auto& l : lines) t += l;
  return t;
}

TEST(AuditChain, LinesItMakesCheckAndNumberOn) {
  ChainState s;
  const auto lines = three(s);
  EXPECT_EQ(s.seq, 3u);
  EXPECT_TRUE(lines[0].starts_with(R"({"seq":1,"prev":"0000)")) << lines[0];
  EXPECT_NE(lines[0].find(R"("user":"alice")"), std::string::npos);
  EXPECT_TRUE(lines[0].ends_with("\"}\n"));
  const ChainCheck c = check_chain(joined(lines));
  EXPECT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.lines, 3u);
  EXPECT_TRUE(c.started_fresh);
  EXPECT_EQ(c.end.hash, s.hash);
  EXPECT_EQ(last_state(joined(lines))->seq, 3u);
}

TEST(AuditChain, AnEditedLineIsFound) {
  ChainState s;
  auto lines = three(s);
  lines[1].replace(lines[1].find("\"viewer\":1"), 10, "\"viewer\":2");
  const ChainCheck c = check_chain(joined(lines));
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.bad_line, 2u);
  EXPECT_NE(c.reason.find("edited"), std::string::npos) << c.reason;
  EXPECT_EQ(c.lines, 1u);
}

TEST(AuditChain, ARemovedAddedOrMovedLineIsFound) {
  ChainState s;
  const auto lines = three(s);
  const ChainCheck removed = check_chain(lines[0] + lines[2]);
  EXPECT_FALSE(removed.ok);
  EXPECT_EQ(removed.bad_line, 2u);
  EXPECT_NE(removed.reason.find("does not follow"), std::string::npos) << removed.reason;
  const ChainCheck moved = check_chain(lines[1] + lines[0] + lines[2]);
  EXPECT_FALSE(moved.ok);
  EXPECT_EQ(moved.bad_line, 2u);
  // A line made on a chain of its own, put in between.
  ChainState other;
  const std::string stranger = *chain_line(other, R"({"event":"connect","viewer":9})");
  EXPECT_EQ(check_chain(lines[0] + stranger + lines[1]).bad_line, 2u);
}

TEST(AuditChain, ACutOffLastLineIsFoundAndSkippedWhenGoingOn) {
  ChainState s;
  const auto lines = three(s);
  const std::string text = lines[0] + lines[1] + lines[2].substr(0, 30);
  const ChainCheck c = check_chain(text);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.bad_line, 3u);
  EXPECT_NE(c.reason.find("cut off"), std::string::npos);
  const auto last = last_state(text);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->seq, 2u);
}

TEST(AuditChain, ARotatedFileFollowsTheOneBefore) {
  ChainState s;
  const auto lines = three(s);
  ChainState at_two;
  ASSERT_TRUE(check_chain(lines[0] + lines[1]).ok);
  at_two = check_chain(lines[0] + lines[1]).end;
  EXPECT_TRUE(check_chain(lines[2], at_two).ok);
  EXPECT_FALSE(check_chain(lines[1], at_two).ok) << "a line of the old file again";
  EXPECT_FALSE(check_chain(lines[2]).started_fresh);
}

TEST(AuditChain, NotAnObjectOrTooLongIsNotALine) {
  ChainState s;
  EXPECT_FALSE(chain_line(s, "[1,2]").has_value());
  EXPECT_FALSE(chain_line(s, "").has_value());
  EXPECT_FALSE(chain_line(s, "{\"big\":\"" + std::string(kMaxLine, 'x') + "\"}").has_value());
  EXPECT_EQ(s.seq, 0u) << "nothing made, nothing moved";
  EXPECT_TRUE(chain_line(s, "{}").has_value());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl::audit
