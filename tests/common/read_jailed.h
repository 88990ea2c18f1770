// Reads a whole file through a FileJail, for the jail's tests on Linux and
// on Windows: its bytes, or "" with `status` saying why not.
//
// Threads: any; blocking.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "platform/file_jail.h"

namespace voxl::platform {

inline std::string read_jailed(const FileJail& jail, const std::string& rel, JailStatus& status) {
  OwnedFile f;
  FileInfo info;
  status = jail.open_read(rel, f, info);
  if (!status) return "";
  std::string out(info.size, '\0');
  size_t got = 0;
  std::string error;
  EXPECT_TRUE(read_at(f.get(), out.data(), out.size(), 0, got, error)) << error;
  out.resize(got);
  return out;
}

}  // namespace voxl::platform
