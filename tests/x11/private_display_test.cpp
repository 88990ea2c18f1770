// The private Xvfb admits only holders of its cookie, and its framebuffer
// segment is readable and writable by voxl's user alone.
#include <gtest/gtest.h>

#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include <X11/Xauth.h>
#include <xcb/xcb.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "platform/x11/virtual_display.h"
#include "platform/x11/x_authority.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

using platform::x11::VirtualDisplay;
using platform::x11::VirtualDisplayOptions;

VirtualDisplayOptions private_options() {
  VirtualDisplayOptions vo;
  vo.size = {320, 240};
  vo.private_authority = true;
  return vo;
}

// Connects to `display` with the Xauthority file `file` (XAUTHORITY, as
// xcb_connect reads it); true when the server admits the client.
bool admitted_with(const std::string& display, const std::string& file) {
  setenv("XAUTHORITY", file.c_str(), 1);
  xcb_connection_t* c = xcb_connect(display.c_str(), nullptr);
  const bool ok = xcb_connection_has_error(c) == 0;
  xcb_disconnect(c);
  unsetenv("XAUTHORITY");
  return ok;
}

bool admitted_with_cookie(const std::string& display, std::string cookie) {
  xcb_auth_info_t auth{};
  std::string name = platform::x11::kMitMagicCookie;
  auth.namelen = int(name.size());
  auth.name = name.data();
  auth.datalen = int(cookie.size());
  auth.data = cookie.data();
  xcb_connection_t* c = xcb_connect_to_display_with_auth_info(display.c_str(), &auth, nullptr);
  const bool ok = xcb_connection_has_error(c) == 0;
  xcb_disconnect(c);
  return ok;
}

struct TempFile {
  std::string path;
  TempFile() {
    char name[] = "/tmp/voxl-empty-xauth-XXXXXX";
    const int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    path = name;
  }
  ~TempFile() { unlink(path.c_str()); }
};

TEST(PrivateDisplay, RefusesClientsWithoutTheCookie) {
  VirtualDisplay xvfb(private_options());
  ASSERT_FALSE(xvfb.authority_file().empty());
  TempFile empty;
  EXPECT_FALSE(admitted_with(xvfb.name(), empty.path)) << "no cookie";
  EXPECT_FALSE(admitted_with_cookie(xvfb.name(), std::string(16, 'x'))) << "a wrong cookie";
  EXPECT_TRUE(admitted_with(xvfb.name(), xvfb.authority_file())) << "voxl's cookie";
}

TEST(PrivateDisplay, LibXauReadsTheCookieFile) {
  VirtualDisplay xvfb(private_options());
  FILE* f = std::fopen(xvfb.authority_file().c_str(), "rb");
  ASSERT_NE(f, nullptr);
  int entries = 0;
  bool wild = false;
  while (Xauth* a = XauReadAuth(f)) {
    ++entries;
    EXPECT_EQ(std::string(a->name, a->name_length), platform::x11::kMitMagicCookie);
    EXPECT_EQ(a->data_length, platform::x11::kMitMagicCookieBytes);
    wild |= a->family == platform::x11::kFamilyWild;
    XauDisposeAuth(a);
  }
  std::fclose(f);
  EXPECT_GE(entries, 1);
  EXPECT_TRUE(wild);
}

TEST(PrivateDisplay, AuthorityFileIsOwnerOnlyAndGoesWithTheServer) {
  std::string file;
  {
    VirtualDisplay xvfb(private_options());
    file = xvfb.authority_file();
    struct stat st{};
    ASSERT_EQ(lstat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
  }
  struct stat st{};
  EXPECT_NE(lstat(file.c_str(), &st), 0) << file << " outlived the server";
}

TEST(PrivateDisplay, FramebufferSegmentIsOwnerOnly) {
  VirtualDisplay xvfb(private_options());
  ASSERT_TRUE(xvfb.framebuffer_shmid());
  EXPECT_EQ(xvfb.framebuffer_warning(), "");
  shmid_ds ds{};
  ASSERT_EQ(shmctl(*xvfb.framebuffer_shmid(), IPC_STAT, &ds), 0);
  EXPECT_EQ(ds.shm_perm.mode & 0777, 0600u);
  EXPECT_EQ(ds.shm_perm.uid, geteuid());
}

TEST(PrivateDisplay, WithoutPrivateAuthorityTheSegmentIsStillOwnerOnly) {
  VirtualDisplayOptions vo;
  vo.size = {320, 240};
  VirtualDisplay xvfb(vo);
  ASSERT_TRUE(xvfb.framebuffer_shmid());
  EXPECT_TRUE(xvfb.authority_file().empty());
  shmid_ds ds{};
  ASSERT_EQ(shmctl(*xvfb.framebuffer_shmid(), IPC_STAT, &ds), 0);
  EXPECT_EQ(ds.shm_perm.mode & 0777, 0600u);
}

}  // namespace
}  // namespace voxl::testing
