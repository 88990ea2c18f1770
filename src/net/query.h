// The query string of an agent endpoint: parsed, percent-decoded, with
// typed getters that name the parameter in their error. Pure; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/geometry.h"

namespace voxl::net {

struct ParamError {
  std::string parameter;
  std::string message;
};

class Query {
 public:
  // nullopt (with `error` set) for malformed encodings or repeated names.
  static std::optional<Query> parse(std::string_view query, ParamError& error);

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // The decoded value, or null when absent.
  const std::string* text(const std::string& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  // Names present that are not in `known`: the first one, if any.
  std::optional<std::string> unknown(const std::vector<std::string>& known) const;

  // Each returns false with `error` set when the value is present but bad;
  // `out` is left alone when the parameter is absent.
  bool integer(const std::string& name, int64_t min, int64_t max, int64_t& out, ParamError& error) const;
  bool unsigned_integer(const std::string& name, uint64_t& out, ParamError& error) const;
  // A presence flag: "name", "name=1/true" or "name=0/false".
  bool flag(const std::string& name, bool& out, ParamError& error) const;
  // "x,y,w,h" with w, h > 0 and x, y >= 0.
  bool rect(const std::string& name, std::optional<Rect>& out, ParamError& error) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace voxl::net
