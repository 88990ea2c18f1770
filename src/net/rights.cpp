#include "net/rights.h"

#include <array>
#include <utility>

#include "net/http_tokens.h"

namespace voxl::net {
namespace {

constexpr std::array<std::pair<std::string_view, Right>, 8> kNames{{
    {"view", Right::kView},
    {"control", Right::kControl},
    {"clipboard-in", Right::kClipboardIn},
    {"clipboard-out", Right::kClipboardOut},
    {"files-up", Right::kFilesUp},
    {"files-down", Right::kFilesDown},
    {"record", Right::kRecord},
    {"admin", Right::kAdmin},
}};

std::optional<Rights> rights_named(std::string_view item) {
  if (item == "all" || item == "admin") return Rights::all();
  if (item == "clipboard") return Rights::of(Right::kClipboardIn).with(Right::kClipboardOut);
  if (item == "files") return Rights::of(Right::kFilesUp).with(Right::kFilesDown);
  for (const auto& [name, right] : kNames)
    if (item == name) return Rights::of(right);
  return std::nullopt;
}

}  // namespace

std::optional<Rights> parse_rights(std::string_view list, std::string& error) {
  Rights out;
  size_t items = 0;
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view item = trim_ows(list.substr(0, comma));
    if (item.empty()) {
      error = list.empty() && items == 0 ? "no rights are given (view, control, clipboard, files, record, admin, all)"
                                         : "an empty item in the list of rights";
      return std::nullopt;
    }
    const auto named = rights_named(item);
    if (!named) {
      error = "'" + std::string(item.substr(0, 40)) +
              "' is not a right (view, control, clipboard-in, clipboard-out, clipboard, files-up, files-down, "
              "files, record, admin, all)";
      return std::nullopt;
    }
    out = out.with(*named);
    ++items;
    if (comma == std::string_view::npos) return out;
    list.remove_prefix(comma + 1);
  }
}

std::string rights_text(Rights rights) {
  std::string out;
  for (const auto& [name, right] : kNames) {
    if (!rights.has(right)) continue;
    if (!out.empty()) out += ',';
    out += name;
  }
  return out;
}

}  // namespace voxl::net
