// A viewer's outgoing text messages (JSON control messages), bounded in
// count and bytes. Of the cursor and clipboard messages only the latest
// waits, and so of the viewer lists: a newer one replaces an older one
// still queued (not the one being written), so a viewer that reads slowly
// is not sent every shape the pointer went through, every copy the desktop
// made or every change another viewer made to the list. The clipboard
// message does not count toward the byte bound (it is bounded by the
// clipboard's own size limit, and there is at most one queued); everything
// else does. Overflow means the viewer is not reading: the caller closes it.
//
// Pure logic; one owner (a viewer connection, loop thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

namespace voxl::stream {

enum class TextKind { kOther, kCursor, kClipboard, kViewers };

class TextQueue {
 public:
  TextQueue(size_t max_messages, size_t max_bytes) : max_messages_(max_messages), max_bytes_(max_bytes) {}

  enum class Push {
    kQueued,
    kReplaced,  // took the place of an older message of its kind
    kOverflow,  // over a bound; nothing was queued
  };
  Push push(std::string text, TextKind kind);

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  // Bytes counted toward the bound (all but the clipboard message).
  size_t bytes() const { return bytes_; }

  // The next message to write; it is then in flight, stays where it is
  // (valid) and is not replaced until pop(). Not empty() first.
  const std::string& start_front();
  // The message in flight was written.
  void pop();
  bool in_flight() const { return in_flight_; }

 private:
  struct Entry {
    std::string text;
    TextKind kind;
  };
  static size_t counted(const Entry& e) { return e.kind == TextKind::kClipboard ? 0 : e.text.size(); }

  size_t max_messages_;
  size_t max_bytes_;
  std::deque<Entry> entries_;
  size_t bytes_ = 0;
  bool in_flight_ = false;
};

}  // namespace voxl::stream
