// xclip as the X application on the other side of a clipboard test: run
// to completion (reading or writing the CLIPBOARD), or left owning it.
//
// Threads: any; each call blocks its caller. The child processes are the
// caller's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/child_process.h"

namespace voxl::testing {

struct XclipOutput {
  bool exited = false;
  std::string out;
};

// Runs xclip with `args` on `display` to completion (30 s at most); feeds
// `in` to its stdin.
XclipOutput run_xclip(const std::string& display, std::vector<std::string> args, const std::string& in = {});

// `xclip -i` owning the clipboard with `data` (as `target` if given), in the
// foreground until it loses the clipboard or is stopped.
std::unique_ptr<platform::ChildProcess> xclip_owner(const std::string& display, const std::string& data,
                                                    const std::string& target = {});

}  // namespace voxl::testing
