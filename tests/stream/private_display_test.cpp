// voxl's own Xvfb is private: only voxl and the --exec program hold its
// cookie, its framebuffer segment is voxl's user's alone, the program
// inherits none of voxl's sockets, a still desktop costs voxl no CPU, and
// the cookie file goes when voxl does.
#include <gtest/gtest.h>

#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xcb/xcb.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "idle_checks.h"
#include "platform/x11/sysv_shm_table.h"
#include "voxl_process.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Waits for `p` to exist (written by the program); its text, or "".
std::string wait_for_file(const fs::path& p) {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!fs::exists(p)) {
    if (std::chrono::steady_clock::now() > deadline) return {};
    std::this_thread::sleep_for(20ms);
  }
  return read_file(p);
}

bool admitted(const std::string& display, const char* xauthority) {
  if (xauthority) setenv("XAUTHORITY", xauthority, 1);
  else unsetenv("XAUTHORITY");
  xcb_connection_t* c = xcb_connect(display.c_str(), nullptr);
  const bool ok = xcb_connection_has_error(c) == 0;
  xcb_disconnect(c);
  unsetenv("XAUTHORITY");
  return ok;
}

// Gives the root window a new background, which damages the whole screen.
void paint_root(const std::string& display, const std::string& xauthority, uint32_t pixel) {
  setenv("XAUTHORITY", xauthority.c_str(), 1);
  xcb_connection_t* c = xcb_connect(display.c_str(), nullptr);
  unsetenv("XAUTHORITY");
  ASSERT_EQ(xcb_connection_has_error(c), 0);
  const xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
  xcb_change_window_attributes(c, root, XCB_CW_BACK_PIXEL, &pixel);
  xcb_clear_area(c, 0, root, 0, 0, 0, 0);
  free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));  // a round trip: drawn once it returns
  xcb_disconnect(c);
}

class PrivateDisplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "voxl-private-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    dir_ = t;
  }
  void TearDown() override {
    voxl_.reset();
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::optional<VoxlProcess> voxl_;
};

TEST_F(PrivateDisplayTest, OnlyVoxlAndItsProgramGetIn) {
  const std::string out = (dir_ / "out").string();
  // The program reports its XAUTHORITY, the file's mode, whether it can
  // connect, and its own descriptors (none of them voxl's sockets).
  const std::string program =
      "{ echo \"$XAUTHORITY\"; stat -c %a \"$XAUTHORITY\"; "
      "if xdpyinfo >/dev/null 2>&1; then echo admitted; else echo refused; fi; "
      "ls -l /proc/$$/fd; } > " + out + ".tmp; mv " + out + ".tmp " + out + "; exec sleep 600";
  voxl_.emplace("", std::vector<std::string>{"--xvfb=320x240", "--exec=" + program});
  std::smatch m;
  const std::string log = voxl_->log();
  ASSERT_TRUE(std::regex_search(log, m, std::regex(R"(started a private Xvfb on (:\d+))"))) << log;
  const std::string display = m[1].str();

  std::istringstream report(wait_for_file(out));
  std::string xauthority, mode, verdict;
  std::getline(report, xauthority);
  std::getline(report, mode);
  std::getline(report, verdict);
  const std::string fds(std::istreambuf_iterator<char>(report), {});
  ASSERT_FALSE(xauthority.empty()) << "the program got no XAUTHORITY";
  EXPECT_EQ(mode, "600");
  EXPECT_EQ(verdict, "admitted") << "the program could not connect";
  EXPECT_EQ(fds.find("socket:"), std::string::npos) << "the program inherited a socket:\n" << fds;

  // Anyone else is refused: no cookie, or an empty authority file.
  const std::string empty = (dir_ / "empty").string();
  std::ofstream(empty).close();
  EXPECT_FALSE(admitted(display, empty.c_str()));
  EXPECT_FALSE(admitted(display, "/nonexistent"));
  EXPECT_TRUE(admitted(display, xauthority.c_str())) << "the cookie file should let a client in";

  // The framebuffer segment of voxl's Xvfb (the one created by the server
  // that reads this authority file) is owner-only.
  int checked = 0;
  for (const auto& seg : platform::x11::read_sysv_shm_table()) {
    std::string cmdline = read_file("/proc/" + std::to_string(seg.creator_pid) + "/cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(xauthority) == std::string::npos) continue;
    shmid_ds ds{};
    ASSERT_EQ(shmctl(seg.shmid, IPC_STAT, &ds), 0);
    EXPECT_EQ(ds.shm_perm.mode & 0777, 0600u) << "segment " << seg.shmid;
    ++checked;
  }
  EXPECT_GE(checked, 1) << "found no framebuffer segment of voxl's Xvfb";

  EXPECT_EQ(costs_nothing_while_still(voxl_->port(), voxl_->pid(), [&] { paint_root(display, xauthority, 0x336699); }),
            "");

  EXPECT_EQ(voxl_->stop(), 0) << voxl_->log();
  EXPECT_FALSE(fs::exists(xauthority)) << "the cookie file outlived voxl";
  EXPECT_FALSE(fs::exists(fs::path(xauthority).parent_path())) << "its directory outlived voxl";
}

}  // namespace
}  // namespace voxl::testing
