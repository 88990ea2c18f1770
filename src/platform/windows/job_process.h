// A program run inside the desktop for voxl's lifetime (--exec): the
// command line goes to cmd.exe /c, in a job object that kills the program
// and everything it started when the job is closed, so nothing outlives the
// daemon, not even after a crash.
//
// Threads: one thread owns it. Blocking: the constructor starts the process;
// the destructor ends it and waits for it (bounded).
#pragma once

#include <string>

#include "base/logging.h"
#include "platform/windows/owned_handle.h"

namespace voxl::platform::windows {

class JobProcess {
 public:
  // Throws std::runtime_error when the process cannot be started.
  JobProcess(const std::string& command, Logger log);
  ~JobProcess();
  JobProcess(const JobProcess&) = delete;
  JobProcess& operator=(const JobProcess&) = delete;

  unsigned long pid() const { return pid_; }
  // True while the process (the cmd.exe running the command) is alive.
  bool running() const;

 private:
  Logger log_;
  OwnedHandle job_;
  OwnedHandle process_;
  unsigned long pid_ = 0;
};

}  // namespace voxl::platform::windows
