// The --exec job object, the display-mode resizer and the console's close
// on a real (Wine) desktop.
#include <gtest/gtest.h>
#include <windows.h>
#include <tlhelp32.h>

#include <chrono>
#include <csignal>
#include <thread>
#include <vector>

#include "base/logging.h"
#include "platform/console_close.h"
#include "platform/windows/capture/monitors.h"
#include "platform/windows/display_mode_resizer.h"
#include "platform/windows/job_process.h"
#include "platform/windows/owned_handle.h"
#include "platform/windows/wide_string.h"

namespace voxl::platform::windows {
namespace {

using namespace std::chrono_literals;

Logger test_log() {
  static Logger log = make_stderr_logger("session-test");
  return log;
}

std::string self_path() {
  wchar_t buf[MAX_PATH];
  const DWORD n = GetModuleFileNameW(nullptr, buf, MAX_PATH);
  return to_utf8(std::wstring(buf, n));
}

// Handles of the processes whose parent is `pid`.
std::vector<OwnedHandle> children_of(DWORD pid) {
  std::vector<OwnedHandle> out;
  OwnedHandle snap(CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0));
  PROCESSENTRY32W e{};
  e.dwSize = sizeof e;
  for (BOOL ok = Process32FirstW(snap.get(), &e); ok; ok = Process32NextW(snap.get(), &e))
    if (e.th32ParentProcessID == pid)
      if (HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, e.th32ProcessID)) out.emplace_back(h);
  return out;
}

TEST(WindowsJobProcess, EndsTheCommandAndItsChildren) {
  std::vector<OwnedHandle> children;
  OwnedHandle shell;
  {
    JobProcess p("\"" + self_path() + "\" --wait-for-kill", test_log());
    EXPECT_TRUE(p.running());
    shell = OwnedHandle(OpenProcess(SYNCHRONIZE, FALSE, p.pid()));
    ASSERT_TRUE(shell);
    // cmd.exe starts the program; wait (generously) until it has.
    const auto end = std::chrono::steady_clock::now() + 30s;
    while ((children = children_of(p.pid())).empty() && std::chrono::steady_clock::now() < end)
      WaitForSingleObject(shell.get(), 50);
    ASSERT_FALSE(children.empty()) << "the command's program never started";
    EXPECT_EQ(WaitForSingleObject(children[0].get(), 0), DWORD(WAIT_TIMEOUT));
  }
  EXPECT_EQ(WaitForSingleObject(shell.get(), 30000), DWORD(WAIT_OBJECT_0));
  for (const OwnedHandle& c : children) EXPECT_EQ(WaitForSingleObject(c.get(), 30000), DWORD(WAIT_OBJECT_0));
}

TEST(WindowsJobProcess, AShortCommandEndsOnItsOwn) {
  JobProcess p("exit 3", test_log());
  OwnedHandle h(OpenProcess(SYNCHRONIZE, FALSE, p.pid()));
  if (h) {
    EXPECT_EQ(WaitForSingleObject(h.get(), 30000), DWORD(WAIT_OBJECT_0));
  }
  EXPECT_FALSE(p.running());
}

TEST(WindowsDisplayModeResizer, ReadsTheMonitorsMode) {
  const MonitorChoice m = choose_monitor("");
  DisplayModeResizer r(m.monitor.device, test_log());
  EXPECT_EQ(r.current_size(), m.monitor.rect.size());
  const Size max = r.max_size();
  EXPECT_GE(max.area(), r.current_size().area());
  std::string error;
  EXPECT_TRUE(r.resize(r.current_size(), error)) << error;
  EXPECT_FALSE(r.resize({1, 1}, error));
  EXPECT_FALSE(error.empty());
}

// What --resize-scale means on Windows when it is not given: the display's
// scaling, 1 at 96 DPI (Wine's default), more on a scaled display.
TEST(WindowsDisplayModeResizer, ReadsTheDisplaysScaling) {
  const MonitorChoice m = choose_monitor("");
  DisplayModeResizer r(m.monitor.device, test_log());
  EXPECT_GE(r.display_scale(), 1.0);
  EXPECT_LE(r.display_scale(), 4.0);
}

}  // namespace
}  // namespace voxl::platform::windows

namespace voxl::platform::windows {
namespace {

TEST(WindowsConsoleClose, ClosingTheConsoleIsSigtermWhileCtrlCStaysWithTheRuntime) {
  EXPECT_EQ(ConsoleClose::signal_for(CTRL_CLOSE_EVENT), SIGTERM);
  EXPECT_EQ(ConsoleClose::signal_for(CTRL_LOGOFF_EVENT), SIGTERM);
  EXPECT_EQ(ConsoleClose::signal_for(CTRL_SHUTDOWN_EVENT), SIGTERM);
  EXPECT_EQ(ConsoleClose::signal_for(CTRL_C_EVENT), 0);
  EXPECT_EQ(ConsoleClose::signal_for(CTRL_BREAK_EVENT), 0);
  // Installs and removes its handler (Wine's console accepts it).
  ConsoleClose close;
  ConsoleClose again;
}

}  // namespace
}  // namespace voxl::platform::windows
