#include "platform/console_close.h"

#include <windows.h>

#include <csignal>

namespace voxl::platform {

namespace {

BOOL WINAPI on_console_event(DWORD event) {
  const int sig = ConsoleClose::signal_for(event);
  if (sig == 0) return FALSE;  // Ctrl+C, Ctrl+Break: the C runtime's handler
  std::raise(sig);
  // Returning would end the process now: the daemon's return from main
  // ends it instead (or Windows, after its grace period).
  Sleep(INFINITE);
  return TRUE;
}

}  // namespace

ConsoleClose::ConsoleClose() : installed_(SetConsoleCtrlHandler(on_console_event, TRUE) != 0) {}

ConsoleClose::~ConsoleClose() {
  if (installed_) SetConsoleCtrlHandler(on_console_event, FALSE);
}

int ConsoleClose::signal_for(unsigned long event) {
  switch (event) {
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
      return SIGTERM;
    default:
      return 0;
  }
}

}  // namespace voxl::platform
