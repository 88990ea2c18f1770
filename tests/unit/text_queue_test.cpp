#include "stream/viewer/text_queue.h"

#include <gtest/gtest.h>

namespace voxl::stream {
namespace VOXL_TEST_FILE {

TEST(TextQueue, BoundedInBytes) {
  TextQueue q(100, 10);
  EXPECT_EQ(q.push("12345", TextKind::kOther), TextQueue::Push::kQueued);
  EXPECT_EQ(q.push("12345", TextKind::kOther), TextQueue::Push::kQueued);
  EXPECT_EQ(q.bytes(), 10u);
  EXPECT_EQ(q.push("1", TextKind::kOther), TextQueue::Push::kOverflow);
  EXPECT_EQ(q.size(), 2u);
  q.start_front();
  q.pop();
  EXPECT_EQ(q.bytes(), 5u);
  EXPECT_EQ(q.push("1", TextKind::kOther), TextQueue::Push::kQueued);
}

TEST(TextQueue, BoundedInCount) {
  TextQueue q(2, 1000);
  EXPECT_EQ(q.push("a", TextKind::kOther), TextQueue::Push::kQueued);
  EXPECT_EQ(q.push("b", TextKind::kOther), TextQueue::Push::kQueued);
  EXPECT_EQ(q.push("c", TextKind::kOther), TextQueue::Push::kOverflow);
}

TEST(TextQueue, OnlyTheLatestCursorWaits) {
  TextQueue q(100, 1000);
  q.push("hello", TextKind::kOther);
  q.push("cursor 1", TextKind::kCursor);
  q.push("pong", TextKind::kOther);
  EXPECT_EQ(q.push("cursor 22", TextKind::kCursor), TextQueue::Push::kReplaced);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.bytes(), 5u + 9u + 4u);
  std::vector<std::string> order;
  while (!q.empty()) {
    order.push_back(q.start_front());
    q.pop();
  }
  EXPECT_EQ(order, (std::vector<std::string>{"hello", "cursor 22", "pong"}));
}

TEST(TextQueue, TheMessageBeingWrittenIsNotReplaced) {
  TextQueue q(100, 1000);
  q.push("cursor 1", TextKind::kCursor);
  const std::string& writing = q.start_front();
  EXPECT_EQ(q.push("cursor 2", TextKind::kCursor), TextQueue::Push::kQueued);
  EXPECT_EQ(writing, "cursor 1");
  q.pop();
  EXPECT_EQ(q.start_front(), "cursor 2");
}

TEST(TextQueue, TheClipboardReplacesAndIsNotCountedInBytes) {
  TextQueue q(100, 10);
  const std::string big(1000, 'x');
  EXPECT_EQ(q.push(big, TextKind::kClipboard), TextQueue::Push::kQueued);
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_EQ(q.push("small", TextKind::kClipboard), TextQueue::Push::kReplaced);
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(q.start_front(), "small");
  EXPECT_EQ(q.push("cursor", TextKind::kCursor), TextQueue::Push::kQueued);
  EXPECT_EQ(q.push("cursor too long", TextKind::kCursor), TextQueue::Push::kOverflow)
      << "a replacement is held to the byte bound too";
}

}  // namespace
}  // namespace voxl::stream
