#include "app/flag_values.h"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace voxl::app {

namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Splits on `sep`, keeping empty pieces so "a,,b" can be refused.
std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// Digits only: the range grammar uses '-' as its separator, so no signs.
std::optional<int> parse_unsigned(std::string_view text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
  int v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc{} || r.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

bool is_host_name(std::string_view text) {
  if (text.empty() || text.size() > 253 || text.front() == '-' || text.front() == '.') return false;
  return std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.';
  });
}

bool is_ip_address(const std::string& text) {
  // As inet_pton reads them: dotted-quad IPv4, or IPv6 without a scope id.
  if (text.find('%') != std::string::npos) return false;
  boost::system::error_code ec;
  boost::asio::ip::make_address(text, ec);
  return !ec;
}

// "host", "host:port", "[v6]" or "[v6]:port" as found after "scheme://".
bool is_origin_authority(std::string_view text) {
  std::string_view host = text, port;
  if (text.starts_with('[')) {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) return false;
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) return false;
    if (!rest.empty()) port = rest.substr(1);
    if (!is_ip_address(std::string(host))) return false;
  } else {
    const size_t colon = text.find(':');
    if (colon != std::string_view::npos) {
      host = text.substr(0, colon);
      port = text.substr(colon + 1);
      if (port.empty()) return false;
    }
    if (!is_host_name(host)) return false;
  }
  return port.empty() || parse_int(port, 1, 65535).has_value();
}

std::optional<std::string> parse_origin(std::string_view text) {
  std::string origin = lowered(text);
  if (origin == "*") return origin;
  if (origin.ends_with('/')) origin.pop_back();
  for (std::string_view scheme : {"http://", "https://"}) {
    if (origin.starts_with(scheme) && is_origin_authority(std::string_view(origin).substr(scheme.size())))
      return origin;
  }
  return std::nullopt;
}

}  // namespace

std::optional<bool> parse_bool(std::string_view text) {
  const std::string v = lowered(text);
  if (v.empty() || v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  return std::nullopt;
}

std::optional<int64_t> parse_int(std::string_view text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc{} || r.ptr != text.data() + text.size()) return std::nullopt;
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

std::optional<double> parse_decimal(std::string_view text, double lo, double hi) {
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc{} || r.ptr != text.data() + text.size()) return std::nullopt;
  // Written as a negated range test so NaN fails too.
  if (!(v >= lo && v <= hi)) return std::nullopt;
  return v;
}

std::optional<RangeSpec> parse_range_spec(std::string_view text, int lo, int hi) {
  RangeSpec spec;
  std::string_view range_text = text;
  if (const size_t comma = text.find(','); comma != std::string_view::npos) {
    spec.value = parse_unsigned(text.substr(0, comma));
    if (!spec.value) return std::nullopt;
    range_text = text.substr(comma + 1);
    if (range_text.find('-') == std::string_view::npos) return std::nullopt;
  }
  if (const size_t dash = range_text.find('-'); dash != std::string_view::npos) {
    const auto min = parse_unsigned(range_text.substr(0, dash));
    const auto max = parse_unsigned(range_text.substr(dash + 1));
    if (!min || !max || *min > *max) return std::nullopt;
    spec.range = IntRange{*min, *max};
  } else {
    spec.value = parse_unsigned(range_text);
    if (!spec.value) return std::nullopt;
  }
  auto inside = [](int v, int a, int b) { return v >= a && v <= b; };
  if (spec.value && !inside(*spec.value, lo, hi)) return std::nullopt;
  if (spec.range && (!inside(spec.range->min, lo, hi) || !inside(spec.range->max, lo, hi)))
    return std::nullopt;
  if (spec.value && spec.range && !inside(*spec.value, spec.range->min, spec.range->max))
    return std::nullopt;
  return spec;
}

std::optional<ClipboardMode> parse_clipboard(std::string_view text) {
  const std::string v = lowered(text);
  if (v == "in") return ClipboardMode::kIn;
  if (v == "out") return ClipboardMode::kOut;
  if (v == "both") return ClipboardMode::kBoth;
  const auto on = parse_bool(v);
  if (!on) return std::nullopt;
  return *on ? ClipboardMode::kBoth : ClipboardMode::kOff;
}

std::optional<BackendName> parse_backend(std::string_view text) {
  const std::string v = lowered(text);
  if (v == "auto") return BackendName::kAuto;
  if (v == "x11") return BackendName::kX11;
  if (v == "wayland") return BackendName::kWayland;
  if (v == "portal") return BackendName::kPortal;
  return std::nullopt;
}

std::optional<FileTransfers> parse_file_transfers(std::string_view text) {
  const std::string v = lowered(text);
  if (v.empty() || v == "none") return FileTransfers{false, false};
  if (v == "both") return FileTransfers{true, true};
  FileTransfers out{false, false};
  for (std::string_view part : split(v, ',')) {
    if (part == "upload")
      out.upload = true;
    else if (part == "download")
      out.download = true;
    else
      return std::nullopt;
  }
  return out;
}

std::optional<std::vector<std::string>> parse_origins(std::string_view text) {
  std::vector<std::string> origins;
  if (text.empty()) return origins;
  for (std::string_view part : split(text, ',')) {
    auto origin = parse_origin(part);
    if (!origin) return std::nullopt;
    origins.push_back(std::move(*origin));
  }
  return origins;
}

std::optional<std::vector<std::string>> parse_allowed_hosts(std::string_view text) {
  std::vector<std::string> hosts;
  if (text.empty()) return hosts;
  if (text == "*") return std::vector<std::string>{"*"};
  for (std::string_view part : split(text, ',')) {
    std::string host = lowered(part);
    if (host.ends_with('.')) host.pop_back();
    const bool ok = !host.empty() && host.size() <= 253 && host.front() != '-' && host.front() != '.' &&
                    std::all_of(host.begin(), host.end(), [](unsigned char c) {
                      return std::isalnum(c) || c == '-' || c == '.' || c == '_';
                    });
    if (!ok) return std::nullopt;
    hosts.push_back(std::move(host));
  }
  return hosts;
}

std::optional<std::vector<WindowRounding>> parse_window_rounding(std::string_view text) {
  std::vector<WindowRounding> out;
  if (lowered(text) == "none") return out;
  for (std::string_view part : split(text, ',')) {
    const size_t colon = part.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    const auto radius = parse_int(part.substr(colon + 1), 0, kMaxCornerRadius);
    if (!radius) return std::nullopt;
    out.push_back({std::string(part.substr(0, colon)), static_cast<int>(*radius)});
  }
  return out;
}

std::optional<std::string> parse_listen_address(std::string_view text) {
  std::string_view bare = text;
  if (bare.size() > 2 && bare.front() == '[' && bare.back() == ']') bare = bare.substr(1, bare.size() - 2);
  const std::string address(bare);
  if (is_ip_address(address)) return address;
  if (bare.size() == text.size() && is_host_name(bare)) return address;
  return std::nullopt;
}

std::optional<ListenPoint> parse_listen_point(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::string_view host = text.substr(0, colon);
  const bool bracketed = host.size() > 2 && host.front() == '[' && host.back() == ']';
  if (bracketed) host = host.substr(1, host.size() - 2);
  // An IPv6 address needs its brackets, or its last group would read as the port.
  if (!bracketed && host.find(':') != std::string_view::npos) return std::nullopt;
  const std::string address(host);
  const auto port = parse_int(std::string(text.substr(colon + 1)), 0, 65535);
  if (!is_ip_address(address) || !port) return std::nullopt;
  return ListenPoint{address, static_cast<int>(*port)};
}

bool is_contained_relative_path(std::string_view text) {
  // '/' between folders on every system: a backslash or ':' (a Windows separator,
  // drive or stream) is refused here rather than by the jail at the first
  // upload.
  if (text.empty() || text.starts_with('/') || text.find_first_of("\\:") != std::string_view::npos) return false;
  for (std::string_view part : split(text, '/')) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return true;
}

bool is_x264_preset(std::string_view text) {
  constexpr std::array<std::string_view, 10> kPresets = {
      "ultrafast", "superfast", "veryfast", "faster", "fast",
      "medium",    "slow",      "slower",   "veryslow", "placebo"};
  return std::find(kPresets.begin(), kPresets.end(), text) != kPresets.end();
}

bool is_log_level(std::string_view text) {
  constexpr std::array<std::string_view, 5> kLevels = {"trace", "debug", "info", "warn", "error"};
  return std::find(kLevels.begin(), kLevels.end(), text) != kLevels.end();
}

bool is_header_name(std::string_view text) {
  return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char ch) {
           return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
         });
}

bool is_congestion_control_name(std::string_view text) {
  return !text.empty() && text.size() <= 15 &&
         std::all_of(text.begin(), text.end(), [](char ch) {
           return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
         });
}

}  // namespace voxl::app
