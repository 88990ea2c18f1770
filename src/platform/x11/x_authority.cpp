#include "platform/x11/x_authority.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "platform/private_dir.h"

namespace voxl::platform::x11 {

namespace {

void put_u16(std::string& out, size_t v) {
  out += char((v >> 8) & 0xff);
  out += char(v & 0xff);
}

void put_counted(std::string& out, const std::string& field) {
  if (field.size() > 0xffff) throw std::invalid_argument("an Xauthority field is longer than 65535 bytes");
  put_u16(out, field.size());
  out += field;
}

std::string random_bytes(size_t n) {
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    const ssize_t r = getrandom(out.data() + got, n - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    got += size_t(r);
  }
  return out;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

}  // namespace

std::string encode_xauthority(const std::vector<XauthorityEntry>& entries) {
  std::string out;
  for (const auto& e : entries) {
    put_u16(out, e.family);
    put_counted(out, e.address);
    put_counted(out, e.number);
    put_counted(out, e.name);
    put_counted(out, e.data);
  }
  return out;
}

PrivateAuthority::PrivateAuthority() : cookie_(random_bytes(kMitMagicCookieBytes)) {
  dir_ = make_private_temp_dir("voxl-xauth-");
  file_ = dir_ + "/Xauthority";
  // The display number is not known before Xvfb picks it (-displayfd), and
  // the server reads the file at start: the entries match any display.
  std::vector<XauthorityEntry> entries;
  if (const std::string host = host_name(); !host.empty())
    entries.push_back({kFamilyLocal, host, "", kMitMagicCookie, cookie_});
  entries.push_back({kFamilyWild, "", "", kMitMagicCookie, cookie_});
  const std::string bytes = encode_xauthority(entries);

  const int fd = open(file_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int e = errno;
    rmdir(dir_.c_str());
    throw std::runtime_error("cannot create " + file_ + ": " + std::strerror(e));
  }
  fchmod(fd, 0600);  // whatever the umask
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
  const bool ok = done == bytes.size() && close(fd) == 0;
  if (!ok) {
    if (done != bytes.size()) close(fd);
    unlink(file_.c_str());
    rmdir(dir_.c_str());
    throw std::runtime_error("cannot write " + file_);
  }
}

PrivateAuthority::~PrivateAuthority() {
  unlink(file_.c_str());
  rmdir(dir_.c_str());
}

}  // namespace voxl::platform::x11
