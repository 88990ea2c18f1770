// What the desktop portal answers a Start with (read_start_results): an
// a{sv} of the portal's choosing, built here from the input as any D-Bus
// peer could send it, with the keys voxl reads given values of every type,
// streams nested in streams and unknown keys among them. Whatever comes, the
// reader returns (a well-formed message is never refused), keeps at most
// kMaxStreams streams, believes only sizes it can stream, and keeps only a
// restore token of plain printable text.
#include <fuzzer/FuzzedDataProvider.h>
#include <sys/socket.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <systemd/sd-bus.h>

#include "fuzz_check.h"
#include "fuzz_target.h"
#include "platform/portal/portal_results.h"
#include "platform/portal/restore_token_file.h"

namespace VOXL_TEST_FILE {

using namespace voxl::platform::portal;

// A bus whose messages are made but never sent: messages need one.
sd_bus* message_bus() {
  static sd_bus* bus = [] {
    int fds[2];
    sd_bus* b = nullptr;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0 || sd_bus_new(&b) < 0 ||
        sd_bus_set_fd(b, fds[0], fds[0]) < 0 || sd_bus_start(b) < 0)
      throw std::runtime_error("no bus for the fuzz target's messages");
    return b;
  }();
  return bus;
}

// D-Bus strings are UTF-8 without NUL: other bytes become '?', control
// characters stay (a token must refuse them).
std::string text(FuzzedDataProvider& in, size_t most) {
  std::string s = in.ConsumeRandomLengthString(most);
  for (char& c : s)
    if (c == 0 || static_cast<unsigned char>(c) >= 0x80) c = '?';
  return s;
}

const char* const kKeys[] = {"devices", "streams", "restore_token", "size", "position", "source_type",
                             "session_handle", "", "x"};
const char* const kTypes[] = {"u", "s", "(ii)", "a(ua{sv})", "b", "as", "i", "o", "v"};

void append_dict(FuzzedDataProvider& in, sd_bus_message* m, int depth);

void append_value(FuzzedDataProvider& in, sd_bus_message* m, const char* type, int depth) {
  const std::string t = type;
  if (t == "u") {
    sd_bus_message_append(m, "v", "u", in.ConsumeIntegral<uint32_t>());
  } else if (t == "i") {
    sd_bus_message_append(m, "v", "i", in.ConsumeIntegral<int32_t>());
  } else if (t == "b") {
    sd_bus_message_append(m, "v", "b", int(in.ConsumeBool()));
  } else if (t == "s") {
    sd_bus_message_append(m, "v", "s", text(in, 2048).c_str());
  } else if (t == "o") {
    sd_bus_message_append(m, "v", "o", in.ConsumeBool() ? "/a/b" : "/");
  } else if (t == "(ii)") {
    sd_bus_message_append(m, "v", "(ii)", in.ConsumeIntegral<int32_t>(), in.ConsumeIntegral<int32_t>());
  } else if (t == "as") {
    sd_bus_message_append(m, "v", "as", 2, "a", text(in, 16).c_str());
  } else if (t == "v") {
    sd_bus_message_open_container(m, 'v', "v");
    sd_bus_message_append(m, "v", "u", in.ConsumeIntegral<uint32_t>());
    sd_bus_message_close_container(m);
  } else {  // a(ua{sv})
    sd_bus_message_open_container(m, 'v', "a(ua{sv})");
    sd_bus_message_open_container(m, 'a', "(ua{sv})");
    const int n = in.ConsumeIntegralInRange(0, 24);
    for (int i = 0; i < n && in.remaining_bytes() > 0; ++i) {
      sd_bus_message_open_container(m, 'r', "ua{sv}");
      sd_bus_message_append(m, "u", in.ConsumeIntegral<uint32_t>());
      append_dict(in, m, depth + 1);
      sd_bus_message_close_container(m);
    }
    sd_bus_message_close_container(m);
    sd_bus_message_close_container(m);
  }
}

void append_dict(FuzzedDataProvider& in, sd_bus_message* m, int depth) {
  sd_bus_message_open_container(m, 'a', "{sv}");
  const int n = in.ConsumeIntegralInRange(0, 8);
  for (int i = 0; i < n && in.remaining_bytes() > 0; ++i) {
    sd_bus_message_open_container(m, 'e', "sv");
    sd_bus_message_append(m, "s", in.PickValueInArray(kKeys));
    const char* type = in.PickValueInArray(kTypes);
    if (depth >= 2 && std::string(type) == "a(ua{sv})") type = "u";
    append_value(in, m, type, depth);
    sd_bus_message_close_container(m);
  }
  sd_bus_message_close_container(m);
}

}  // namespace VOXL_TEST_FILE

VOXL_FUZZ_TARGET(portal_results) {
  using namespace VOXL_TEST_FILE;
  FuzzedDataProvider in(data, size);
  sd_bus_message* m = nullptr;
  if (sd_bus_message_new_signal(message_bus(), &m, "/org/freedesktop/portal/desktop/request/1_1/voxl1",
                                "org.freedesktop.portal.Request", "Response") < 0)
    return 0;
  append_dict(in, m, 0);
  FUZZ_CHECK(sd_bus_message_seal(m, 1, 0) >= 0);
  FUZZ_CHECK(sd_bus_message_rewind(m, 1) >= 0);
  const StartResults r = read_start_results(m);  // a well-formed a{sv}: never throws
  FUZZ_CHECK(r.streams.size() <= kMaxStreams);
  for (const PortalStream& s : r.streams) {
    if (s.size) FUZZ_CHECK(s.size->width > 0 && s.size->height > 0 && s.size->width <= 16384);
  }
  FUZZ_CHECK(r.restore_token.size() <= kMaxTokenBytes);
  FUZZ_CHECK(sd_bus_message_rewind(m, 1) >= 0);
  (void)read_session_handle(m);
  sd_bus_message_unref(m);
  const std::string raw(reinterpret_cast<const char*>(data), size);
  if (plausible_token(raw))
    for (unsigned char c : raw) FUZZ_CHECK(c > 0x20 && c < 0x7f);
  return 0;
}
