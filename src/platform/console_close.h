// Closing the console voxl runs in stops it as cleanly as Ctrl+C does.
//
// POSIX: a closed terminal sends SIGHUP, which the daemon's signal set
// takes; nothing to do here. Windows: closing the console window, logging
// off and shutting down reach a console program as control events that no
// C signal carries, and Windows ends the process once the handler returns
// (and after about five seconds in any case). While a ConsoleClose lives,
// those events raise SIGTERM for the daemon's signal set and hold the
// event's thread, so the daemon's shutdown runs and its return from main
// ends the process. Ctrl+C and Ctrl+Break stay with the C runtime (SIGINT,
// SIGBREAK).
//
// Threads: made and destroyed on the daemon's main thread; the handler runs
// on a thread Windows makes for the event.
#pragma once

namespace voxl::platform {

class ConsoleClose {
 public:
  ConsoleClose();
  ~ConsoleClose();
  ConsoleClose(const ConsoleClose&) = delete;
  ConsoleClose& operator=(const ConsoleClose&) = delete;

  // The signal a console control event is turned into (0: none, left to
  // the next handler). Windows' event codes; POSIX has none.
  static int signal_for(unsigned long event);

 private:
  bool installed_ = false;
};

}  // namespace voxl::platform
