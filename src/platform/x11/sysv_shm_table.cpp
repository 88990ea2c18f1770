#include "platform/x11/sysv_shm_table.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace voxl::platform::x11 {

namespace {

std::vector<std::string_view> split_ws(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

template <class T>
bool parse_num(std::string_view s, T& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && p == s.data() + s.size();
}

}  // namespace

std::vector<SysvSegmentInfo> parse_sysv_shm_table(std::string_view text) {
  std::vector<SysvSegmentInfo> out;
  int col_key = -1, col_id = -1, col_size = -1, col_cpid = -1, col_nattch = -1;
  bool header = true;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const auto cols = split_ws(line);
    if (cols.empty()) continue;
    if (header) {
      for (int i = 0; i < int(cols.size()); ++i) {
        const auto c = cols[size_t(i)];
        if (c == "key") col_key = i;
        else if (c == "shmid") col_id = i;
        else if (c == "size") col_size = i;
        else if (c == "cpid") col_cpid = i;
        else if (c == "nattch") col_nattch = i;
      }
      if (col_key < 0 || col_id < 0 || col_size < 0 || col_cpid < 0 || col_nattch < 0) return out;
      header = false;
      continue;
    }
    const int need = std::max({col_key, col_id, col_size, col_cpid, col_nattch});
    if (int(cols.size()) <= need) continue;
    SysvSegmentInfo s;
    if (!parse_num(cols[size_t(col_key)], s.key) || !parse_num(cols[size_t(col_id)], s.shmid) ||
        !parse_num(cols[size_t(col_size)], s.size) ||
        !parse_num(cols[size_t(col_cpid)], s.creator_pid) ||
        !parse_num(cols[size_t(col_nattch)], s.attachments))
      continue;
    out.push_back(s);
  }
  return out;
}

std::vector<SysvSegmentInfo> read_sysv_shm_table() {
  std::ifstream in("/proc/sysvipc/shm");
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_sysv_shm_table(ss.str());
}

}  // namespace voxl::platform::x11
