#include "app/secret_file.h"

#include "platform/file_head.h"

namespace voxl::app {

SecretFile read_secret_file(const std::string& flag, const std::string& path) {
  SecretFile out;
  const auto fail = [&](const std::string& why) {
    out.error = flag + ": cannot use '" + path + "': " + why;
    return out;
  };
  constexpr size_t kMax = 4096;
  platform::FileHead head = platform::read_file_head(path, kMax);
  if (!head.text) return fail(head.error);
  out.loose = head.loose;
  std::string text = head.text->substr(0, head.text->find('\n'));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.empty()) return fail("its first line is empty");
  out.value = std::move(text);
  return out;
}

}  // namespace voxl::app
