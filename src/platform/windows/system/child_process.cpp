// ChildProcess on Windows: CreateProcessW with an explicit list of the
// handles the child inherits (the three standard ones), in a job object
// that kills it when voxl's handle to the job closes.
#include "platform/child_process.h"

#include <io.h>
#include <windows.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

namespace {

using windows::describe_last_error;
using windows::to_utf8;
using windows::to_wide;

bool is_file(const std::wstring& path) {
  const DWORD a = GetFileAttributesW(path.c_str());
  return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY) == 0;
}

std::wstring env_var(const wchar_t* name) {
  const DWORD n = GetEnvironmentVariableW(name, nullptr, 0);
  if (n == 0) return {};
  std::wstring value(n, L'\0');
  const DWORD got = GetEnvironmentVariableW(name, value.data(), n);
  value.resize(got < n ? got : 0);
  return value;
}

std::vector<std::wstring> split(const std::wstring& list, wchar_t sep) {
  std::vector<std::wstring> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = std::min(list.find(sep, start), list.size());
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// `path` itself, else `path` with one of PATHEXT's extensions.
std::wstring existing_program(const std::wstring& path, const std::vector<std::wstring>& extensions) {
  if (is_file(path)) return path;
  for (const auto& ext : extensions)
    if (is_file(path + ext)) return path + ext;
  return {};
}

// One argument quoted so that CommandLineToArgvW (and the C runtime) read
// it back unchanged: backslashes double only before a quote.
std::wstring quote_argument(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (const wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(backslashes * 2, L'\\');
  out.push_back(L'"');
  return out;
}

bool same_name(const std::wstring& entry, const std::wstring& added) {
  // "=C:" entries (the per-drive folders) start with '=': their name
  // includes it.
  const size_t a = entry.find(L'=', 1);
  const size_t b = added.find(L'=', 1);
  return a != std::wstring::npos && b != std::wstring::npos && a == b &&
         CompareStringOrdinal(entry.c_str(), int(a), added.c_str(), int(b), TRUE) == CSTR_EQUAL;
}

// Our environment with `add` added or replacing (names compare without
// case, as Windows does), as a CREATE_UNICODE_ENVIRONMENT block.
std::wstring environment_block(const std::vector<std::string>& add) {
  std::vector<std::wstring> added;
  for (const auto& a : add) added.push_back(to_wide(a));
  std::wstring block;
  if (wchar_t* env = GetEnvironmentStringsW()) {
    for (const wchar_t* e = env; *e; e += wcslen(e) + 1) {
      const std::wstring entry(e);
      bool replaced = false;
      for (const auto& a : added) replaced = replaced || same_name(entry, a);
      if (!replaced) block += entry + L'\0';
    }
    FreeEnvironmentStringsW(env);
  }
  for (const auto& a : added) block += a + L'\0';
  block += L'\0';
  return block;
}

// An inheritable duplicate of `h` (ours stays as it was); null when `h` is
// not a handle.
HANDLE inheritable_copy(HANDLE h) {
  if (h == nullptr || h == INVALID_HANDLE_VALUE) return nullptr;
  HANDLE copy = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), h, GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS))
    return nullptr;
  return copy;
}

class Handles {
 public:
  ~Handles() {
    for (HANDLE h : owned_)
      if (h) CloseHandle(h);
  }
  HANDLE keep(HANDLE h) {
    if (h) owned_.push_back(h);
    return h;
  }

 private:
  std::vector<HANDLE> owned_;
};

}  // namespace

std::string find_on_path(const std::string& program) {
  std::vector<std::wstring> extensions = split(env_var(L"PATHEXT"), L';');
  if (extensions.empty()) extensions = {L".COM", L".EXE", L".BAT", L".CMD"};
  const std::wstring wide = to_wide(program);
  if (wide.find_first_of(L"/\\:") != std::wstring::npos) return to_utf8(existing_program(wide, extensions));
  for (const auto& dir : split(env_var(L"PATH"), L';')) {
    std::wstring candidate = dir;
    if (candidate.back() != L'\\' && candidate.back() != L'/') candidate += L'\\';
    const std::wstring found = existing_program(candidate + wide, extensions);
    if (!found.empty()) return to_utf8(found);
  }
  return {};
}

bool wait_child_exit(ProcessId pid, std::chrono::milliseconds limit) {
  HANDLE process = OpenProcess(SYNCHRONIZE, FALSE, DWORD(pid));
  if (!process) return true;  // gone, and nobody (not us) holds it any more
  const DWORD r = WaitForSingleObject(process, DWORD(limit.count()));
  CloseHandle(process);
  return r == WAIT_OBJECT_0;
}

ChildProcess::ChildProcess(const ChildOptions& o) {
  if (o.argv.empty()) throw std::invalid_argument("ChildProcess needs a program");
  for (const auto& [child_fd, parent_fd] : o.fds)
    if (child_fd < 0 || child_fd > 2)
      throw std::invalid_argument("a Windows child inherits only its standard handles, not descriptor " +
                                  std::to_string(child_fd));
  const std::string exe = find_on_path(o.argv[0]);
  if (exe.empty()) throw std::runtime_error(o.argv[0] + " not found on PATH");

  std::wstring command_line;
  for (const auto& a : o.argv) command_line += (command_line.empty() ? L"" : L" ") + quote_argument(to_wide(a));
  std::wstring env = environment_block(o.env);

  Handles handles;
  HANDLE null_device = nullptr;
  if (o.quiet) {
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    null_device = handles.keep(CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                           &inherit, OPEN_EXISTING, 0, nullptr));
    if (null_device == INVALID_HANDLE_VALUE) null_device = nullptr;
  }
  const DWORD std_ids[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
  HANDLE std_handles[3] = {};
  for (int fd = 0; fd <= 2; ++fd) {
    HANDLE chosen = nullptr;
    for (const auto& [child_fd, parent_fd] : o.fds)
      if (child_fd == fd) chosen = handles.keep(inheritable_copy(reinterpret_cast<HANDLE>(_get_osfhandle(parent_fd))));
    if (!chosen) chosen = null_device ? null_device : handles.keep(inheritable_copy(GetStdHandle(std_ids[fd])));
    std_handles[fd] = chosen;
  }
  std::vector<HANDLE> inherited;
  for (HANDLE h : std_handles)
    if (h && std::find(inherited.begin(), inherited.end(), h) == inherited.end()) inherited.push_back(h);

  SIZE_T attr_size = 0;
  InitializeProcThreadAttributeList(nullptr, 1, 0, &attr_size);
  std::vector<unsigned char> attr_storage(attr_size);
  auto* attrs = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attr_storage.data());
  if (!InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size))
    throw std::runtime_error(describe_last_error("InitializeProcThreadAttributeList"));
  const bool listed = !inherited.empty() &&
                      UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited.data(),
                                                inherited.size() * sizeof(HANDLE), nullptr, nullptr);

  STARTUPINFOEXW si{};
  si.StartupInfo.cb = sizeof si;
  si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  si.StartupInfo.hStdInput = std_handles[0];
  si.StartupInfo.hStdOutput = std_handles[1];
  si.StartupInfo.hStdError = std_handles[2];
  si.lpAttributeList = listed ? attrs : nullptr;

  HANDLE job = CreateJobObjectW(nullptr, nullptr);
  if (!job) {
    DeleteProcThreadAttributeList(attrs);
    throw std::runtime_error(describe_last_error("CreateJobObjectW"));
  }
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);

  PROCESS_INFORMATION pi{};
  const std::wstring wide_exe = to_wide(exe);
  const DWORD flags = CREATE_UNICODE_ENVIRONMENT | CREATE_SUSPENDED | (listed ? EXTENDED_STARTUPINFO_PRESENT : 0);
  const BOOL started = CreateProcessW(wide_exe.c_str(), command_line.data(), nullptr, nullptr, listed ? TRUE : FALSE,
                                      flags, env.data(), nullptr, &si.StartupInfo, &pi);
  const std::string start_error = started ? std::string() : describe_last_error("CreateProcessW " + exe);
  DeleteProcThreadAttributeList(attrs);
  if (!started) {
    CloseHandle(job);
    throw std::runtime_error(start_error);
  }
  // In the job before it runs a single instruction, so whatever it starts
  // is in the job too.
  AssignProcessToJobObject(job, pi.hProcess);
  ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);
  pid_ = ProcessId(pi.dwProcessId);
  process_ = pi.hProcess;
  job_ = job;
}

ChildProcess::~ChildProcess() { stop(); }

void ChildProcess::stop(std::chrono::milliseconds grace) {
  if (!process_) return;
  TerminateJobObject(static_cast<HANDLE>(job_), 1);
  WaitForSingleObject(static_cast<HANDLE>(process_), DWORD(grace.count()));
  CloseHandle(static_cast<HANDLE>(process_));
  CloseHandle(static_cast<HANDLE>(job_));
  process_ = job_ = nullptr;
  pid_ = -1;
}

bool ChildProcess::exited() {
  if (!process_) return true;
  if (WaitForSingleObject(static_cast<HANDLE>(process_), 0) != WAIT_OBJECT_0) return false;
  CloseHandle(static_cast<HANDLE>(process_));
  CloseHandle(static_cast<HANDLE>(job_));  // ends what it left running
  process_ = job_ = nullptr;
  pid_ = -1;
  return true;
}

}  // namespace voxl::platform
