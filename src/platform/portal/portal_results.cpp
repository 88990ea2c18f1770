#include "platform/portal/portal_results.h"

#include <cstring>
#include <functional>
#include <stdexcept>

namespace voxl::platform::portal {

namespace {

// Sides of a stream past this are not believed.
constexpr int kMaxSide = 16384;

void check(int r) {
  if (r < 0) throw std::runtime_error(std::string("the desktop portal's answer is malformed: ") + std::strerror(-r));
}

// Calls `value(key, signature)` for each entry of the a{sv} at `m`, with
// `m` at the variant; `value` reads it whole and returns true, or returns
// false to have it skipped.
void for_each_entry(sd_bus_message* m, const std::function<bool(const char*, const char*)>& value) {
  check(sd_bus_message_enter_container(m, 'a', "{sv}"));
  for (;;) {
    const int r = sd_bus_message_enter_container(m, 'e', "sv");
    check(r);
    if (r == 0) break;
    const char* key = nullptr;
    check(sd_bus_message_read(m, "s", &key));
    char type = 0;
    const char* signature = nullptr;
    check(sd_bus_message_peek_type(m, &type, &signature));
    if (type != 'v' || signature == nullptr || !value(key, signature)) check(sd_bus_message_skip(m, "v"));
    check(sd_bus_message_exit_container(m));
  }
  check(sd_bus_message_exit_container(m));
}

bool read_pair(sd_bus_message* m, const char* signature, int& a, int& b) {
  if (std::strcmp(signature, "(ii)") != 0) return false;
  int32_t x = 0, y = 0;
  check(sd_bus_message_read(m, "v", "(ii)", &x, &y));
  a = x;
  b = y;
  return true;
}

bool read_u(sd_bus_message* m, const char* signature, uint32_t& out) {
  if (std::strcmp(signature, "u") != 0) return false;
  check(sd_bus_message_read(m, "v", "u", &out));
  return true;
}

PortalStream read_stream(sd_bus_message* m) {
  PortalStream s;
  check(sd_bus_message_read(m, "u", &s.node));
  for_each_entry(m, [&](const char* key, const char* signature) {
    int a = 0, b = 0;
    if (std::strcmp(key, "size") == 0) {
      if (!read_pair(m, signature, a, b)) return false;
      if (a > 0 && b > 0 && a <= kMaxSide && b <= kMaxSide) s.size = Size{a, b};
      return true;
    }
    if (std::strcmp(key, "position") == 0) {
      if (!read_pair(m, signature, a, b)) return false;
      if (a > -kMaxSide * 4 && a < kMaxSide * 4 && b > -kMaxSide * 4 && b < kMaxSide * 4) s.position = Point{a, b};
      return true;
    }
    if (std::strcmp(key, "source_type") == 0) return read_u(m, signature, s.source_type);
    return false;
  });
  return s;
}

bool read_streams(sd_bus_message* m, const char* signature, std::vector<PortalStream>& out) {
  if (std::strcmp(signature, "a(ua{sv})") != 0) return false;
  check(sd_bus_message_enter_container(m, 'v', "a(ua{sv})"));
  check(sd_bus_message_enter_container(m, 'a', "(ua{sv})"));
  for (;;) {
    const int r = sd_bus_message_enter_container(m, 'r', "ua{sv}");
    check(r);
    if (r == 0) break;
    PortalStream s = read_stream(m);
    if (out.size() < kMaxStreams) out.push_back(s);
    check(sd_bus_message_exit_container(m));
  }
  check(sd_bus_message_exit_container(m));
  check(sd_bus_message_exit_container(m));
  return true;
}

bool read_s(sd_bus_message* m, const char* signature, std::string& out, size_t limit) {
  if (std::strcmp(signature, "s") != 0 && std::strcmp(signature, "o") != 0) return false;
  const char* text = nullptr;
  check(sd_bus_message_read(m, "v", signature, &text));
  if (text && std::strlen(text) <= limit) out = text;
  return true;
}

}  // namespace

StartResults read_start_results(sd_bus_message* m) {
  StartResults out;
  for_each_entry(m, [&](const char* key, const char* signature) {
    if (std::strcmp(key, "devices") == 0) return read_u(m, signature, out.devices);
    if (std::strcmp(key, "streams") == 0) return read_streams(m, signature, out.streams);
    if (std::strcmp(key, "restore_token") == 0) return read_s(m, signature, out.restore_token, kMaxTokenBytes);
    return false;
  });
  return out;
}

std::string read_session_handle(sd_bus_message* m) {
  std::string handle;
  for_each_entry(m, [&](const char* key, const char* signature) {
    if (std::strcmp(key, "session_handle") != 0) return false;
    return read_s(m, signature, handle, 4096);
  });
  return handle;
}

}  // namespace voxl::platform::portal
