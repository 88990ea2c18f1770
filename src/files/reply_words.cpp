#include "files/reply_words.h"

#include <cstdio>

namespace voxl::files {

using net::EndpointReply;
using net::json_error;
using platform::JailError;
using platform::JailStatus;

int http_status(JailError e) {
  switch (e) {
    case JailError::kNone: return 200;
    case JailError::kNotFound: return 404;
    case JailError::kNotAllowed: return 403;
    case JailError::kExists: return 409;
    case JailError::kNotADirectory:
    case JailError::kIsADirectory:
    case JailError::kTooLong: return 400;
    case JailError::kNoSpace: return 507;
    case JailError::kIo: return 500;
  }
  return 500;
}

std::string words(JailError e, const std::string& rel) {
  const std::string what = rel.empty() ? "the root folder" : "'" + rel + "'";
  switch (e) {
    case JailError::kNone: return "";
    case JailError::kNotFound: return "no such file or folder: " + what;
    case JailError::kNotAllowed: return "not allowed: " + what;
    case JailError::kExists: return what + " exists already";
    case JailError::kNotADirectory: return what + " is not a folder";
    case JailError::kIsADirectory: return what + " is a folder";
    case JailError::kTooLong: return "the name is too long for this file system: " + what;
    case JailError::kNoSpace: return "no space left on the disk";
    case JailError::kIo: return "the disk refused: " + what;
  }
  return "";
}

EndpointReply jail_error(const JailStatus& s, const std::string& rel, const std::string& parameter) {
  return json_error(http_status(s.error), parameter, words(s.error, rel));
}

std::string human_bytes(uint64_t n) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = double(n);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace voxl::files
