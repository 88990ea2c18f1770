// The web client, compiled into the binary at build time (see
// cmake/EmbedAssets.cmake): the binary needs no files at run time.
// Immutable data; any thread.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace voxl::net {

struct Asset {
  std::string_view path;          // "/", "/app.js"
  std::string_view content_type;
  std::string_view etag;          // quoted, from the content's hash
  std::span<const uint8_t> data;
  std::span<const uint8_t> gzip;  // the same, gzip-compressed
};

// The asset served at `path`, or null.
const Asset* find_asset(std::string_view path);

}  // namespace voxl::net
