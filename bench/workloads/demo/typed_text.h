// The text typed into voxl-demo: the last `capacity` characters, newlines
// included; older ones are dropped from the front as new ones come.
//
// Not thread-safe: the X thread only. Owns its characters.
#pragma once

#include <cstddef>
#include <string>

namespace voxl::demo {

class TypedText {
 public:
  explicit TypedText(size_t capacity) : capacity_(capacity) {}

  void insert(char32_t c);
  void newline() { insert(U'\n'); }
  // Removes the last character; nothing when there is none.
  void backspace();
  void clear() { text_.clear(); }

  const std::u32string& text() const { return text_; }
  bool empty() const { return text_.empty(); }

 private:
  size_t capacity_;
  std::u32string text_;
};

}  // namespace voxl::demo
