// Secrets (passwords, tokens) read from a file instead of the command line,
// where every local user can read them (platform/file_head.h checks the
// file). Used once on the main thread while parsing flags.
#pragma once

#include <optional>
#include <string>

namespace voxl::app {

struct SecretFile {
  std::optional<std::string> value;  // the first line, without its line ending; nullopt on error
  std::string error;                 // why not, naming the flag and the file
  bool loose = false;                // group or others may read the file
};

// Reads the first line of `path` (at most 4 KiB; trailing "\n" or "\r\n"
// removed). Refuses files that cannot be read, that are not regular files
// and an empty first line. `flag` names the option in messages.
SecretFile read_secret_file(const std::string& flag, const std::string& path);

}  // namespace voxl::app
