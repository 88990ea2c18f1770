// Running a command from a test: what it printed and its exit code, and
// the users file line `voxl hash-password` writes. Header-only; the
// test's thread.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <utility>

namespace voxl::testing {

// Runs `command` through the shell: its standard output and exit code (-1
// when it could not run or did not exit).
inline std::pair<std::string, int> run_command(const std::string& command) {
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) return {"", -1};
  std::string out;
  char buf[512];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// The users file's line for `name` with `password` and `rights`, as `voxl
// hash-password` writes it ("" when it failed).
inline std::string user_line(const std::string& name, const std::string& password, const std::string& rights) {
  const auto [line, code] =
      run_command("printf '%s\\n' '" + password + "' | '" VOXL_BINARY "' hash-password " + name + " " + rights);
  return code == 0 ? line : std::string();
}

}  // namespace voxl::testing
