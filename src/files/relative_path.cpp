#include "files/relative_path.h"

#include "base/utf8.h"

namespace voxl::files {

namespace {

bool check_text(std::string_view text, std::string& why) {
  if (text.size() > kMaxPathBytes) {
    why = "the path is longer than " + std::to_string(kMaxPathBytes) + " bytes";
    return false;
  }
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) return why = "the path holds a NUL byte", false;
    if (c == '\\') return why = "the path holds a backslash: use '/' between names", false;
    if (c < 0x20 || c == 0x7F) return why = "the path holds a control character", false;
  }
  if (!decode_utf8(text)) return why = "the path is not UTF-8", false;
  return true;
}

}  // namespace

std::optional<std::string> parse_relative_path(std::string_view text, std::string& why) {
  if (!check_text(text, why)) return std::nullopt;
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view part = text.substr(start, end - start);
    start = end + 1;
    if (part.empty()) continue;
    if (part == "." || part == "..") {
      why = "'" + std::string(part) + "' is not allowed in a path";
      return std::nullopt;
    }
    if (part.size() > kMaxNameBytes) {
      why = "a name in the path is longer than " + std::to_string(kMaxNameBytes) + " bytes";
      return std::nullopt;
    }
    if (!out.empty()) out += '/';
    out.append(part);
  }
  return out;
}

std::optional<std::string> parse_new_path(std::string_view text, std::string& why) {
  auto path = parse_relative_path(text, why);
  if (!path) return std::nullopt;
  if (path->empty()) {
    why = "the name is empty";
    return std::nullopt;
  }
  size_t start = 0;
  while (start <= path->size()) {
    size_t end = path->find('/', start);
    if (end == std::string::npos) end = path->size();
    const std::string_view part(path->data() + start, end - start);
    start = end + 1;
    if (part.starts_with(kPartialPrefix)) {
      why = "names starting with '" + std::string(kPartialPrefix) + "' are voxl's own";
      return std::nullopt;
    }
    if (part.back() == ' ' || part.back() == '.') {
      why = "the name '" + std::string(part) + "' ends with a space or a dot";
      return std::nullopt;
    }
  }
  return path;
}

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  if (name.empty()) return dir;
  return dir + "/" + name;
}

std::string last_name(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  return slash == std::string::npos ? rel : rel.substr(slash + 1);
}

std::string parent_path(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

std::string numbered_name(const std::string& name, int n) {
  // Where the extension starts: the last dot, or the one before a
  // compression suffix of a tar ("x.tar.gz"); none for ".bashrc" or "notes".
  size_t dot = name.rfind('.');
  if (dot == 0 || dot == std::string::npos) dot = name.size();
  if (dot != name.size() && dot >= 5 && name.compare(dot - 4, 4, ".tar") == 0 && dot - 4 > 0) dot -= 4;
  std::string stem = name.substr(0, dot);
  const std::string ext = name.substr(dot);
  const std::string tag = " (" + std::to_string(n) + ")";
  const size_t room = kMaxNameBytes > tag.size() + ext.size() ? kMaxNameBytes - tag.size() - ext.size() : 0;
  if (stem.size() > room) {
    size_t cut = room;
    while (cut > 0 && (static_cast<unsigned char>(stem[cut]) & 0xC0) == 0x80) --cut;
    stem.resize(cut);
  }
  return stem + tag + ext;
}

}  // namespace voxl::files
