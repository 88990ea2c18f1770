#include "net/query.h"

#include <charconv>

namespace voxl::net {

namespace {

std::optional<std::string> percent_decode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      out += ' ';
    } else if (in[i] == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      unsigned v = 0;
      const auto r = std::from_chars(in.data() + i + 1, in.data() + i + 3, v, 16);
      if (r.ec != std::errc() || r.ptr != in.data() + i + 3) return std::nullopt;
      out += char(v);
      i += 2;
    } else {
      out += in[i];
    }
  }
  return out;
}

template <class T>
bool parse_number(const std::string& s, T& out) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::optional<Query> Query::parse(std::string_view query, ParamError& error) {
  Query q;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    auto name = percent_decode(item.substr(0, eq));
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1));
    if (!name || !value) {
      error = {std::string(item.substr(0, eq)), "bad percent-encoding"};
      return std::nullopt;
    }
    if (!q.values_.emplace(*name, *value).second) {
      error = {*name, "given more than once"};
      return std::nullopt;
    }
  }
  return q;
}

std::optional<std::string> Query::unknown(const std::vector<std::string>& known) const {
  for (const auto& [name, value] : values_) {
    bool found = false;
    for (const auto& k : known) found = found || k == name;
    if (!found) return name;
  }
  return std::nullopt;
}

bool Query::integer(const std::string& name, int64_t min, int64_t max, int64_t& out, ParamError& error) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return true;
  int64_t v = 0;
  if (!parse_number(it->second, v) || v < min || v > max) {
    error = {name, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", not '" +
                       it->second + "'"};
    return false;
  }
  out = v;
  return true;
}

bool Query::unsigned_integer(const std::string& name, uint64_t& out, ParamError& error) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return true;
  uint64_t v = 0;
  if (!parse_number(it->second, v)) {
    error = {name, "must be a non-negative integer, not '" + it->second + "'"};
    return false;
  }
  out = v;
  return true;
}

bool Query::flag(const std::string& name, bool& out, ParamError& error) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return true;
  const std::string& v = it->second;
  if (v.empty() || v == "1" || v == "true") {
    out = true;
  } else if (v == "0" || v == "false") {
    out = false;
  } else {
    error = {name, "takes no value, or 1/true/0/false, not '" + v + "'"};
    return false;
  }
  return true;
}

bool Query::rect(const std::string& name, std::optional<Rect>& out, ParamError& error) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return true;
  int64_t v[4];
  std::string_view s = it->second;
  for (int i = 0; i < 4; ++i) {
    const size_t comma = s.find(',');
    const std::string part(s.substr(0, comma));
    if ((i < 3) == (comma == std::string_view::npos) || !parse_number(part, v[i]) || v[i] < 0 || v[i] > 65535 ||
        (i >= 2 && v[i] == 0)) {
      error = {name, "must be x,y,w,h (non-negative integers, w and h positive), not '" + it->second + "'"};
      return false;
    }
    s = comma == std::string_view::npos ? std::string_view() : s.substr(comma + 1);
  }
  out = Rect{int(v[0]), int(v[1]), int(v[2]), int(v[3])};
  return true;
}

}  // namespace voxl::net
