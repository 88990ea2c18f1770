#include "typed_text.h"

namespace voxl::demo {

void TypedText::insert(char32_t c) {
  if (capacity_ == 0) return;
  if (text_.size() >= capacity_) text_.erase(0, text_.size() - capacity_ + 1);
  text_.push_back(c);
}

void TypedText::backspace() {
  if (!text_.empty()) text_.pop_back();
}

}  // namespace voxl::demo
