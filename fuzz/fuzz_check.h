// Property checks for the fuzz targets: a failed check prints what broke
// and aborts, which libFuzzer reports as a crash with the input saved.
// Header-only; the fuzzer's thread.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)

namespace voxl::fuzz {

// `text` must be one JSON value in valid UTF-8 (nlohmann's parser checks
// the encoding of every string); returns it parsed.
inline nlohmann::json parse_json_or_abort(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) {
    std::fprintf(stderr, "not valid UTF-8 JSON (%zu bytes): %s\n", text.size(), text.c_str());
    std::abort();
  }
  return j;
}

// True when `s` is well-formed UTF-8 (nlohmann's strict dump throws otherwise).
inline bool valid_utf8(const std::string& s) {
  try {
    (void)nlohmann::json(s).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

// `in` cut at NUL bytes into exactly `parts` fields: the last takes the
// rest, missing ones are empty. Views into `in`.
inline std::vector<std::string_view> split_nul(std::string_view in, size_t parts) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < parts) {
    const size_t nul = in.find('\0');
    if (nul == std::string_view::npos) break;
    out.push_back(in.substr(0, nul));
    in.remove_prefix(nul + 1);
  }
  out.push_back(in);
  while (out.size() < parts) out.emplace_back();
  return out;
}

}  // namespace voxl::fuzz
