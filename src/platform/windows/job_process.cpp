#include "platform/windows/job_process.h"

#include <stdexcept>
#include <vector>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform::windows {

namespace {

constexpr DWORD kExitWaitMs = 5000;

}  // namespace

JobProcess::JobProcess(const std::string& command, Logger log) : log_(std::move(log)) {
  job_ = OwnedHandle(CreateJobObjectW(nullptr, nullptr));
  if (!job_) throw std::runtime_error(describe_last_error("CreateJobObject for --exec"));
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  if (!SetInformationJobObject(job_.get(), JobObjectExtendedLimitInformation, &limits, sizeof limits))
    throw std::runtime_error(describe_last_error("SetInformationJobObject for --exec"));

  // cmd.exe /d (no AutoRun) /s /c "<command>": the quotes around the whole
  // command are stripped by /s, so the command keeps its own quoting.
  std::wstring line = L"cmd.exe /d /s /c \"" + to_wide(command) + L"\"";
  std::vector<wchar_t> buf(line.begin(), line.end());
  buf.push_back(L'\0');
  STARTUPINFOW si{};
  si.cb = sizeof si;
  PROCESS_INFORMATION pi{};
  // Suspended until it is in the job, so no child escapes before that.
  if (!CreateProcessW(nullptr, buf.data(), nullptr, nullptr, FALSE, CREATE_SUSPENDED | CREATE_NO_WINDOW, nullptr,
                      nullptr, &si, &pi))
    throw std::runtime_error(describe_last_error("starting --exec '" + command + "'"));
  process_ = OwnedHandle(pi.hProcess);
  OwnedHandle thread(pi.hThread);
  pid_ = pi.dwProcessId;
  if (!AssignProcessToJobObject(job_.get(), process_.get())) {
    const std::string err = describe_last_error("AssignProcessToJobObject for --exec");
    TerminateProcess(process_.get(), 1);
    throw std::runtime_error(err);
  }
  ResumeThread(thread.get());
  if (log_) log_->info("started '{}' (pid {}) in a job that ends with voxl", command, pid_);
}

JobProcess::~JobProcess() {
  if (!job_) return;
  const bool was_running = running();
  TerminateJobObject(job_.get(), 1);
  if (process_) WaitForSingleObject(process_.get(), kExitWaitMs);
  if (log_ && was_running) log_->info("ended the --exec program (pid {})", pid_);
}

bool JobProcess::running() const {
  return process_ && WaitForSingleObject(process_.get(), 0) == WAIT_TIMEOUT;
}

}  // namespace voxl::platform::windows
