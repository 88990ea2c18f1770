#include "proc_stats.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace voxl::testing {

long open_fds_of(pid_t pid) {
  std::error_code ec;
  std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec);
  if (ec) return -1;
  long n = 0;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) return -1;
    ++n;
  }
  return n;
}

long rss_kib_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

double cpu_seconds_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  // "pid (comm) S ppid ...": utime and stime are fields 14 and 15, the
  // 12th and 13th after the state.
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  if (!fields) return -1;
  return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

bool process_alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return false;
  // "pid (comm) S ...": the state follows the last ')'.
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 2 >= stat.size()) return false;
  const char state = stat[paren + 2];
  return state != 'Z' && state != 'X';
}

ShmFigures sysv_segments_of(const std::vector<pid_t>& pids) {
  std::ifstream in("/proc/sysvipc/shm");
  std::string line;
  std::getline(in, line);  // the column names
  ShmFigures f;
  while (std::getline(in, line)) {
    // key shmid perms size cpid lpid nattch uid ...
    std::istringstream fields(line);
    long long key, shmid, perms, cpid, lpid;
    unsigned long long size;
    if (!(fields >> key >> shmid >> perms >> size >> cpid >> lpid)) continue;
    const auto ours = [&](long long p) { return std::find(pids.begin(), pids.end(), pid_t(p)) != pids.end(); };
    if (ours(cpid) || ours(lpid)) {
      ++f.segments;
      f.bytes += size;
    }
  }
  return f;
}

std::string crash_reports_in(const std::string& log) {
  static const char* const kMarkers[] = {"AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called",
                                         "Segmentation fault", "Aborted"};
  std::istringstream in(log);
  std::string line, found;
  while (std::getline(in, line))
    for (const char* m : kMarkers)
      if (line.find(m) != std::string::npos) {
        found += line + "\n";
        break;
      }
  return found;
}

}  // namespace voxl::testing
