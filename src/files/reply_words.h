// How the /files replies (files/files_service.h) speak: a jail's error as
// an HTTP status and as words for a person (never the system's own path or
// errno text), and byte counts a person reads.
//
// Threads: pure functions of their arguments; any thread.
#pragma once

#include <cstdint>
#include <string>

#include "net/endpoint.h"
#include "platform/file_jail.h"

namespace voxl::files {

int http_status(platform::JailError e);

// Words for a person: what went wrong with `rel`, without the system's
// own path or errno text.
std::string words(platform::JailError e, const std::string& rel);

// The error reply for `s` about `rel`, naming the request's `parameter`.
net::EndpointReply jail_error(const platform::JailStatus& s, const std::string& rel, const std::string& parameter);

// "512 bytes", "1.5 MiB".
std::string human_bytes(uint64_t n);

}  // namespace voxl::files
