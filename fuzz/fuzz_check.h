// Property checks for the fuzz targets: a failed check prints what broke
// and aborts, which libFuzzer reports as a crash with the input saved.
// Header-only; the fuzzer's thread.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

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

}  // namespace voxl::fuzz
