// Parsers for the values of command-line flags. Each returns nullopt for text
// it refuses; the caller names the flag and what it accepts. Pure functions:
// any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/config.h"

namespace voxl::app {

// true/false, 1/0, yes/no, on/off in any letter case. Empty text is true,
// because that is what a flag given without a value carries.
std::optional<bool> parse_bool(std::string_view text);

// A whole decimal number in [lo, hi]; no sign other than a leading '-', no
// spaces.
std::optional<int64_t> parse_int(std::string_view text, int64_t lo, int64_t hi);

// A decimal number such as "1.5" in [lo, hi].
std::optional<double> parse_decimal(std::string_view text, double lo, double hi);

struct IntRange {
  int min = 0;
  int max = 0;
  friend bool operator==(const IntRange&, const IntRange&) = default;
};

// "N", "MIN-MAX" or "N,MIN-MAX", the last being how selkies writes a
// starting value with its range. Every number lies in [lo, hi], MIN <= MAX
// and N lies within MIN-MAX.
struct RangeSpec {
  std::optional<int> value;
  std::optional<IntRange> range;
};
std::optional<RangeSpec> parse_range_spec(std::string_view text, int lo, int hi);

// true/1/yes/on (both ways), in, out, false/0/no/off; empty is true.
std::optional<ClipboardMode> parse_clipboard(std::string_view text);
// "auto", "x11" or "wayland", any case.
std::optional<BackendName> parse_backend(std::string_view text);

// upload, download, both, none, or a comma list of upload and download.
// Empty is none, as selkies takes it.
std::optional<FileTransfers> parse_file_transfers(std::string_view text);

// Comma-separated origins: "*" or http(s)://host[:port]. Scheme and host are
// lowered and one trailing '/' dropped, so they compare equal to what
// browsers send in the Origin header.
std::optional<std::vector<std::string>> parse_origins(std::string_view text);

// Comma-separated host names (letters, digits, '-', '.', '_'; lowered, one
// trailing '.' dropped) or "*" alone.
std::optional<std::vector<std::string>> parse_allowed_hosts(std::string_view text);

// "none" (no entries) or "title:radius,...". The title ends at the last ':'
// so titles may contain colons; radius lies in 0..kMaxCornerRadius.
inline constexpr int kMaxCornerRadius = 256;
std::optional<std::vector<WindowRounding>> parse_window_rounding(std::string_view text);

// An IPv4 or IPv6 address (brackets allowed and dropped) or a host name.
std::optional<std::string> parse_listen_address(std::string_view text);

// "ADDR:PORT" with an IPv4 address or a bracketed IPv6 one ("[::1]:9101"),
// port 0-65535.
std::optional<ListenPoint> parse_listen_point(std::string_view text);

// A relative path with no "." or ".." parts, so it cannot leave the root.
bool is_contained_relative_path(std::string_view text);

// One of x264's presets, ultrafast to placebo.
bool is_x264_preset(std::string_view text);

// trace, debug, info, warn or error.
bool is_log_level(std::string_view text);

// A name the kernel could hold for a TCP congestion control (TCP_CA_NAME_MAX
// is 16 with its NUL): 1-15 of a-z, 0-9, _ and -.
bool is_congestion_control_name(std::string_view text);

// An HTTP header name as a proxy would set it: 1-64 of A-Z, a-z, 0-9 and -.
bool is_header_name(std::string_view text);

}  // namespace voxl::app
