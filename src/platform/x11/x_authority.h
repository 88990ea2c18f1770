// The private Xvfb's credential: an MIT-MAGIC-COOKIE-1 written into an
// Xauthority file that the server (-auth), voxl's own connections and the
// --exec program (XAUTHORITY) read.
//
// encode_xauthority() writes the file format libXau reads: per entry a
// big-endian u16 family, then address, display number, protocol name and
// data, each a big-endian u16 length and the bytes. Pure; any thread.
//
// PrivateAuthority makes a new random cookie, a private directory (0700,
// under $XDG_RUNTIME_DIR when usable, else $TMPDIR or /tmp) and the file in
// it (0600, O_EXCL|O_NOFOLLOW); the destructor removes both.
// Threads: construct and destroy on one thread; the getters from any.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace voxl::platform::x11 {

inline constexpr uint16_t kFamilyLocal = 256;
inline constexpr uint16_t kFamilyWild = 0xffff;
inline constexpr const char* kMitMagicCookie = "MIT-MAGIC-COOKIE-1";
inline constexpr size_t kMitMagicCookieBytes = 16;

struct XauthorityEntry {
  uint16_t family = kFamilyWild;
  std::string address;  // the host name for kFamilyLocal
  std::string number;   // display number as text; empty matches any display
  std::string name = kMitMagicCookie;
  std::string data;     // the cookie's bytes
};

// Throws std::invalid_argument when a field is longer than 65535 bytes.
std::string encode_xauthority(const std::vector<XauthorityEntry>& entries);

class PrivateAuthority {
 public:
  // Throws std::runtime_error when the directory or file cannot be made.
  PrivateAuthority();
  ~PrivateAuthority();
  PrivateAuthority(const PrivateAuthority&) = delete;
  PrivateAuthority& operator=(const PrivateAuthority&) = delete;

  const std::string& file() const { return file_; }
  const std::string& cookie() const { return cookie_; }

 private:
  std::string dir_;
  std::string file_;
  std::string cookie_;
};

}  // namespace voxl::platform::x11
