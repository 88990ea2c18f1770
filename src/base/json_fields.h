// Reading the fields of an untrusted JSON object (a viewer's message)
// without ever throwing: each getter checks the field's type and range
// (numbers by the one rule of base/json_number.h) and gives nullopt when
// the field is absent or unusable; a present but unusable field (wrong
// type, out of range, not finite, too long) also marks the reader bad, so
// the caller can ignore the whole message.
//
//   JsonFields f(m);
//   const auto t = f.number("t", -1e15, 1e15);
//   if (!f.ok()) return;  // f.bad_field() names the culprit
//
// The getters do not throw (short of running out of memory looking a key
// up). Header-only; any thread (one reader per message). The reader refers to
// the object it was given, which must outlive it; the string_views it
// hands out point into that object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/json_number.h"

namespace voxl {

class JsonFields {
 public:
  explicit JsonFields(const nlohmann::json& object) noexcept : object_(object) {}

  // A finite number in [lo, hi] (json_number).
  std::optional<double> number(const char* key, double lo, double hi) {
    const auto* v = find(key);
    if (!v) return std::nullopt;
    double d = 0;
    if (json_number(*v, lo, hi, d) != JsonNumberFault::kNone) return bad(key);
    return d;
  }

  // An integer in [lo, hi] by the one rule (json_integer): 3.0 is 3; 3.5,
  // true and "3" are none.
  std::optional<int64_t> integer(const char* key, int64_t lo, int64_t hi) {
    const auto* v = find(key);
    if (!v) return std::nullopt;
    int64_t n = 0;
    if (json_integer(*v, lo, hi, n) != JsonNumberFault::kNone) return bad(key);
    return n;
  }

  std::optional<bool> boolean(const char* key) {
    const auto* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) return bad(key);
    return v->get<bool>();
  }

  // A string of at most max_bytes bytes (its content is not checked).
  std::optional<std::string_view> string(const char* key, size_t max_bytes) {
    const auto* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_string()) return bad(key);
    const auto& s = v->get_ref<const nlohmann::json::string_t&>();
    if (s.size() > max_bytes) return bad(key);
    return std::string_view(s);
  }

  bool has(const char* key) const { return find(key) != nullptr; }
  // False once a getter met an unusable field.
  bool ok() const noexcept { return bad_field_ == nullptr; }
  // The first unusable field, or nullptr.
  const char* bad_field() const noexcept { return bad_field_; }

 private:
  const nlohmann::json* find(const char* key) const {
    if (!object_.is_object()) return nullptr;
    const auto& o = object_.get_ref<const nlohmann::json::object_t&>();
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &it->second;
  }

  std::nullopt_t bad(const char* key) noexcept {
    if (!bad_field_) bad_field_ = key;
    return std::nullopt;
  }

  const nlohmann::json& object_;
  const char* bad_field_ = nullptr;
};

}  // namespace voxl
