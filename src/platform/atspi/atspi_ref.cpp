#include "platform/atspi/atspi_ref.h"

#include <string_view>

namespace voxl::platform::atspi {
namespace {

constexpr std::string_view kRoot = kAccessibleRoot;
constexpr size_t kMaxRef = 256;

bool digits(std::string_view s) {
  if (s.empty() || s.size() > 10) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A unique connection name: ":<digits>.<digits>", as the bus daemon gives them.
bool unique_name(std::string_view s) {
  if (s.size() < 4 || s[0] != ':') return false;
  const size_t dot = s.find('.');
  return dot != std::string_view::npos && digits(s.substr(1, dot - 1)) && digits(s.substr(dot + 1));
}

// Object path elements under the root: [A-Za-z0-9_]+ separated by '/'.
bool path_tail(std::string_view s) {
  if (s.empty()) return false;
  bool element_empty = true;
  for (char c : s) {
    if (c == '/') {
      if (element_empty) return false;
      element_empty = true;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
      element_empty = false;
    } else {
      return false;
    }
  }
  return !element_empty;
}

}  // namespace

std::string ref_of(const BusObject& o) {
  const std::string_view name = std::string_view(o.name).substr(o.name.starts_with(':') ? 1 : 0);
  const std::string_view path = o.path;
  if (path.starts_with(kRoot)) return std::string(name) + "/" + std::string(path.substr(kRoot.size()));
  return std::string(name) + "/" + std::string(path);  // another path, whole: "1.42//org/x"
}

std::optional<BusObject> object_of(const std::string& ref) {
  if (ref.size() > kMaxRef) return std::nullopt;
  const size_t slash = ref.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string name = ":" + ref.substr(0, slash);
  const std::string_view tail = std::string_view(ref).substr(slash + 1);
  if (!unique_name(name)) return std::nullopt;
  if (tail.starts_with('/')) {
    // The whole-path form is only for paths outside the usual root (one
    // spelling per object).
    if (!path_tail(tail.substr(1)) || tail.starts_with(kRoot)) return std::nullopt;
    return BusObject{name, std::string(tail)};
  }
  if (!path_tail(tail)) return std::nullopt;
  return BusObject{name, std::string(kRoot) + std::string(tail)};
}

}  // namespace voxl::platform::atspi
