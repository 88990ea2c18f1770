// The file jail on Windows: every path is opened one component at a time
// with NtCreateFile relative to the handle of the folder before it, never
// following a reparse point (FILE_OPEN_REPARSE_POINT), and each handle is
// checked before the next component is opened from it:
//
// - a reparse point (symlink, junction, mount point) is refused, wherever
//   it leads;
// - the handle's normalized final path must be the folder's checked path
//   plus the name asked for (case aside). That refuses an 8.3 short name
//   standing for another entry, and anything the system resolved out of
//   the root on its own (Wine follows Unix symlinks and shows no reparse
//   point for them);
// - names Windows cannot hold safely are refused before any call: device
//   names (CON, NUL, COM1...), alternate data streams ("a:b"), the
//   characters Win32 reserves, control characters, a trailing dot or space.
//
// Only handles that passed the checks are used to go further, so a folder
// swapped for a link after its check cannot lead out.
#include "platform/file_jail.h"

#include <windows.h>
#include <winternl.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "platform/jail_path.h"
#include "platform/user_paths.h"
#include "platform/windows/owned_handle.h"
#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

namespace {

using windows::OwnedHandle;

constexpr ULONG kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
constexpr ACCESS_MASK kLookAt = FILE_READ_ATTRIBUTES | SYNCHRONIZE;
constexpr ACCESS_MASK kFolder = FILE_TRAVERSE | FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | SYNCHRONIZE;

JailStatus refused(JailError e, std::string message) { return {e, std::move(message)}; }

JailError error_of_status(NTSTATUS status) {
  switch (static_cast<uint32_t>(status)) {
    case 0xC0000034:  // STATUS_OBJECT_NAME_NOT_FOUND
    case 0xC000003A:  // STATUS_OBJECT_PATH_NOT_FOUND
    case 0xC0000056:  // STATUS_DELETE_PENDING
      return JailError::kNotFound;
    case 0xC0000022:  // STATUS_ACCESS_DENIED
    case 0xC0000033:  // STATUS_OBJECT_NAME_INVALID
    case 0xC0000043:  // STATUS_SHARING_VIOLATION
    case 0xC00000A2:  // STATUS_MEDIA_WRITE_PROTECTED
      return JailError::kNotAllowed;
    case 0xC0000035:  // STATUS_OBJECT_NAME_COLLISION
    case 0xC0000101:  // STATUS_DIRECTORY_NOT_EMPTY
      return JailError::kExists;
    case 0xC0000103:  // STATUS_NOT_A_DIRECTORY
      return JailError::kNotADirectory;
    case 0xC00000BA:  // STATUS_FILE_IS_A_DIRECTORY
      return JailError::kIsADirectory;
    case 0xC000007F:  // STATUS_DISK_FULL
    case 0xC0000044:  // STATUS_QUOTA_EXCEEDED
      return JailError::kNoSpace;
    case 0xC0000106:  // STATUS_NAME_TOO_LONG
      return JailError::kTooLong;
    default:
      return JailError::kIo;
  }
}

JailStatus failure_status(NTSTATUS status, const std::string& what) {
  return {error_of_status(status), what + ": " + windows::system_message(RtlNtStatusToDosError(status))};
}

JailStatus failure_last_error(const std::string& what) {
  const DWORD e = GetLastError();
  JailError kind = JailError::kIo;
  switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND: kind = JailError::kNotFound; break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION: kind = JailError::kNotAllowed; break;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: kind = JailError::kExists; break;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: kind = JailError::kNoSpace; break;
    default: break;
  }
  return {kind, what + ": " + windows::system_message(e)};
}

bool equal_ignoring_case(std::wstring_view a, std::wstring_view b) {
  return a.size() == b.size() &&
         CompareStringOrdinal(a.data(), int(a.size()), b.data(), int(b.size()), TRUE) == CSTR_EQUAL;
}

// A name Windows holds as one plain entry of a folder.
bool windows_name(std::wstring_view name) {
  if (name.empty() || name.back() == L'.' || name.back() == L' ') return false;
  for (wchar_t c : name)
    if (c < 0x20 || std::wstring_view(L"<>:\"/\\|?*").find(c) != std::wstring_view::npos) return false;
  // Device names, with or without an extension, whatever their case.
  std::wstring_view base = name.substr(0, name.find(L'.'));
  while (!base.empty() && base.back() == L' ') base.remove_suffix(1);
  static constexpr std::array<std::wstring_view, 6> kDevices = {L"CON", L"PRN", L"AUX", L"NUL", L"CONIN$", L"CONOUT$"};
  for (std::wstring_view d : kDevices)
    if (equal_ignoring_case(base, d)) return false;
  if (base.size() == 4 && (equal_ignoring_case(base.substr(0, 3), L"COM") || equal_ignoring_case(base.substr(0, 3), L"LPT"))) {
    const wchar_t n = base[3];
    if ((n >= L'0' && n <= L'9') || n == L'\u00B9' || n == L'\u00B2' || n == L'\u00B3') return false;
  }
  return true;
}

int64_t unix_ms(const LARGE_INTEGER& t) { return (t.QuadPart - 116444736000000000LL) / 10000; }

// The handle's normalized path ("\\?\C:\a\b"), empty when the system has none.
std::wstring final_path(HANDLE h) {
  std::wstring path(512, L'\0');
  for (int attempt = 0; attempt < 3; ++attempt) {
    const DWORD n = GetFinalPathNameByHandleW(h, path.data(), DWORD(path.size()), FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (n == 0) return {};
    if (n < path.size()) {
      path.resize(n);
      while (!path.empty() && path.back() == L'\0') path.pop_back();
      while (path.size() > 7 && path.back() == L'\\') path.pop_back();
      return path;
    }
    path.resize(n + 1);
  }
  return {};
}

JailStatus describe(HANDLE h, FileInfo& info, const std::string& rel) {
  FILE_BASIC_INFO basic{};
  FILE_STANDARD_INFO standard{};
  BY_HANDLE_FILE_INFORMATION id{};
  if (!GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic) ||
      !GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof standard) ||
      !GetFileInformationByHandle(h, &id))
    return failure_last_error("cannot look at '" + rel + "'");
  const DWORD attrs = basic.FileAttributes;
  info.kind = (attrs & FILE_ATTRIBUTE_REPARSE_POINT) ? FileInfo::Kind::kOther
              : (attrs & FILE_ATTRIBUTE_DIRECTORY)   ? FileInfo::Kind::kDirectory
              : (attrs & FILE_ATTRIBUTE_DEVICE)      ? FileInfo::Kind::kOther
                                                     : FileInfo::Kind::kFile;
  info.size = info.kind == FileInfo::Kind::kFile ? uint64_t(standard.EndOfFile.QuadPart) : 0;
  info.modified_ms = unix_ms(basic.LastWriteTime);
  const uint64_t index = (uint64_t(id.nFileIndexHigh) << 32) | id.nFileIndexLow;
  info.version = std::to_string(id.dwVolumeSerialNumber) + "-" + std::to_string(index) + "-" +
                 std::to_string(info.size) + "-" + std::to_string(basic.ChangeTime.QuadPart);
  return {};
}

struct Request {
  ACCESS_MASK access = kLookAt;
  ULONG disposition = FILE_OPEN;
  ULONG options = 0;  // FILE_DIRECTORY_FILE, FILE_NON_DIRECTORY_FILE
  ULONG share = kShareAll;
};

}  // namespace

struct FileJail::Impl {
  std::string root;
  OwnedHandle root_handle;
  std::wstring root_path;  // its normalized final path

  // Opens `name` in the folder `dir` (whose checked path is `dir_path`) as
  // `r` says, and checks what was opened. `rel` names it in messages.
  JailStatus open_in(HANDLE dir, const std::wstring& dir_path, const std::string& name, const Request& r,
                     const std::string& rel, OwnedHandle& out, std::wstring& path) const {
    const std::wstring wide = windows::to_wide(name);
    if (!windows_name(wide)) return refused(JailError::kNotAllowed, "'" + rel + "' is not a name Windows can hold");
    UNICODE_STRING us;
    us.Buffer = const_cast<PWSTR>(wide.c_str());
    us.Length = us.MaximumLength = USHORT(wide.size() * sizeof(wchar_t));
    OBJECT_ATTRIBUTES oa;
    InitializeObjectAttributes(&oa, &us, OBJ_CASE_INSENSITIVE, dir, nullptr);
    IO_STATUS_BLOCK io{};
    HANDLE h = nullptr;
    const NTSTATUS st =
        NtCreateFile(&h, r.access, &oa, &io, nullptr, FILE_ATTRIBUTE_NORMAL, r.share, r.disposition,
                     r.options | FILE_OPEN_REPARSE_POINT | FILE_SYNCHRONOUS_IO_NONALERT, nullptr, 0);
    if (st < 0) return failure_status(st, "cannot open '" + rel + "'");
    OwnedHandle opened(h);
    FILE_BASIC_INFO basic{};
    if (!GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic))
      return failure_last_error("cannot look at '" + rel + "'");
    if (basic.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
      return refused(JailError::kNotAllowed, "'" + rel + "' is a link or junction, which voxl does not follow");
    const std::wstring want = dir_path + L"\\" + wide;
    const std::wstring got = final_path(h);
    if (!equal_ignoring_case(got, want))
      return refused(JailError::kNotAllowed, "'" + rel + "' is another entry's short name or leads out of the folder");
    out = std::move(opened);
    path = want;
    return {};
  }

  // Walks to the folder holding `rel`'s last component: `dir` is that
  // folder's handle (or null for the root, which stays owned here).
  JailStatus walk_to_parent(const std::string& rel, bool make, OwnedHandle& dir, std::wstring& path,
                            std::string& last) const {
    path = root_path;
    dir.reset();
    size_t start = 0;
    for (;;) {
      const size_t slash = rel.find('/', start);
      if (slash == std::string::npos) {
        last = rel.substr(start);
        return {};
      }
      const std::string upto = rel.substr(0, slash);
      Request r;
      r.access = kFolder;
      r.options = FILE_DIRECTORY_FILE;
      if (make) r.disposition = FILE_OPEN_IF;
      OwnedHandle next;
      std::wstring next_path;
      JailStatus s = open_in(dir ? dir.get() : root_handle.get(), path, rel.substr(start, slash - start), r,
                             upto, next, next_path);
      if (!s) return s;
      dir = std::move(next);
      path = std::move(next_path);
      start = slash + 1;
    }
  }

  // Opens `rel` (not "") as `r` says; `path` is its checked path.
  JailStatus open(const std::string& rel, const Request& r, OwnedHandle& out, std::wstring& path) const {
    OwnedHandle dir;
    std::wstring dir_path;
    std::string last;
    if (JailStatus s = walk_to_parent(rel, false, dir, dir_path, last); !s) return s;
    return open_in(dir ? dir.get() : root_handle.get(), dir_path, last, r, rel, out, path);
  }
  JailStatus open(const std::string& rel, const Request& r, OwnedHandle& out) const {
    std::wstring path;
    return open(rel, r, out, path);
  }

  // A handle of `rel` for looking at it or listing it; "" is the root.
  JailStatus open_any(const std::string& rel, ACCESS_MASK access, OwnedHandle& out) const {
    if (rel.empty()) {
      // The root again, as a new open of the folder (an empty name relative
      // to its handle), not a duplicate of the handle: a duplicate shares
      // the file object, and with it the position of a folder listing,
      // which Wine does not even restart.
      UNICODE_STRING none{};
      OBJECT_ATTRIBUTES oa;
      InitializeObjectAttributes(&oa, &none, 0, root_handle.get(), nullptr);
      IO_STATUS_BLOCK io{};
      HANDLE h = nullptr;
      const NTSTATUS st = NtCreateFile(&h, access | SYNCHRONIZE, &oa, &io, nullptr, 0, kShareAll, FILE_OPEN,
                                       FILE_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT, nullptr, 0);
      if (st < 0) return failure_status(st, "cannot open the shared folder");
      out = OwnedHandle(h);
      return {};
    }
    Request r;
    r.access = access;
    return open(rel, r, out);
  }
};

FileJail::FileJail(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileJail::~FileJail() = default;

std::unique_ptr<FileJail> FileJail::open(const std::string& root, std::string& error) {
  if (!is_absolute_path(root)) {
    error = "'" + root + "' is not an absolute path";
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  impl->root = root;
  impl->root_handle = OwnedHandle(CreateFileW(windows::to_wide(root).c_str(), kFolder, kShareAll, nullptr,
                                              OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
  if (!impl->root_handle) {
    error = "cannot open the folder " + root + ": " + windows::system_message(GetLastError());
    return nullptr;
  }
  FILE_BASIC_INFO basic{};
  if (!GetFileInformationByHandleEx(impl->root_handle.get(), FileBasicInfo, &basic, sizeof basic) ||
      !(basic.FileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
    error = root + " is not a folder";
    return nullptr;
  }
  impl->root_path = final_path(impl->root_handle.get());
  if (impl->root_path.empty()) {
    error = "cannot tell where the folder " + root + " is: " + windows::system_message(GetLastError());
    return nullptr;
  }
  return std::unique_ptr<FileJail>(new FileJail(std::move(impl)));
}

const std::string& FileJail::root() const { return impl_->root; }

JailStatus FileJail::check_names(const std::string& rel) {
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  size_t start = 0;
  while (start < rel.size()) {
    const size_t end = std::min(rel.find('/', start), rel.size());
    const std::string name = rel.substr(start, end - start);
    if (!windows_name(windows::to_wide(name)))
      return refused(JailError::kNotAllowed, "'" + name +
                                                 "' is not a name Windows can hold (a device name such as CON or "
                                                 "COM1, one of < > : \" / \\ | ? *, or a dot or space at the end)");
    start = end + 1;
  }
  return {};
}

JailStatus FileJail::stat(const std::string& rel, FileInfo& info) const {
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  OwnedHandle h;
  if (JailStatus s = impl_->open_any(rel, kLookAt, h); !s) return s;
  return describe(h.get(), info, rel);
}

JailStatus FileJail::open_read(const std::string& rel, OwnedFile& file, FileInfo& info) const {
  if (!plain_relative(rel) || rel.empty())
    return refused(rel.empty() ? JailError::kIsADirectory : JailError::kNotAllowed,
                   rel.empty() ? "the shared folder is a folder" : "the path is not a plain relative path");
  Request r;
  r.access = GENERIC_READ | SYNCHRONIZE;
  r.options = FILE_NON_DIRECTORY_FILE;
  r.share = FILE_SHARE_READ | FILE_SHARE_DELETE;
  OwnedHandle h;
  if (JailStatus s = impl_->open(rel, r, h); !s) return s;
  if (GetFileType(h.get()) != FILE_TYPE_DISK)
    return refused(JailError::kNotAllowed, "'" + rel + "' is not a regular file");
  if (JailStatus s = describe(h.get(), info, rel); !s) return s;
  file = OwnedFile(h.release());
  return {};
}

JailStatus FileJail::list(const std::string& rel, size_t max_entries, std::vector<DirEntry>& out,
                          bool& truncated) const {
  truncated = false;
  out.clear();
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  OwnedHandle dir;
  std::wstring dir_path;
  if (rel.empty()) {
    if (JailStatus s = impl_->open_any("", kFolder, dir); !s) return s;
    dir_path = impl_->root_path;
  } else {
    Request r;
    r.access = kFolder;
    r.options = FILE_DIRECTORY_FILE;
    if (JailStatus s = impl_->open(rel, r, dir, dir_path); !s) return s;
  }
  std::vector<unsigned char> buf(64 * 1024);
  bool first = true;
  for (;;) {
    if (!GetFileInformationByHandleEx(dir.get(), first ? FileIdBothDirectoryRestartInfo : FileIdBothDirectoryInfo,
                                      buf.data(), DWORD(buf.size()))) {
      if (GetLastError() == ERROR_NO_MORE_FILES) return {};
      return failure_last_error("cannot read the folder '" + rel + "'");
    }
    first = false;
    for (size_t at = 0;;) {
      const auto* e = reinterpret_cast<const FILE_ID_BOTH_DIR_INFO*>(buf.data() + at);
      const std::wstring_view name(e->FileName, e->FileNameLength / sizeof(wchar_t));
      if (name != L"." && name != L"..") {
        if (out.size() == max_entries) {
          truncated = true;
          return {};
        }
        DirEntry entry;
        entry.name = windows::to_utf8(name);
        // Described by what the jail reaches under that name: a link, or
        // an entry whose name Windows cannot hold, is kOther.
        Request r;
        OwnedHandle child;
        std::wstring child_path;
        const std::string child_rel = rel.empty() ? entry.name : rel + "/" + entry.name;
        if (!impl_->open_in(dir.get(), dir_path, entry.name, r, child_rel, child, child_path) ||
            !describe(child.get(), entry.info, child_rel)) {
          entry.info = FileInfo{};
          entry.info.modified_ms = unix_ms(e->LastWriteTime);
        }
        out.push_back(std::move(entry));
      }
      if (e->NextEntryOffset == 0) break;
      at += e->NextEntryOffset;
    }
  }
}

JailStatus FileJail::make_dirs(const std::string& rel) const {
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  if (rel.empty()) return {};
  OwnedHandle dir;
  std::wstring dir_path;
  std::string last;
  if (JailStatus s = impl_->walk_to_parent(rel, true, dir, dir_path, last); !s) {
    if (s.error == JailError::kNotADirectory) s.message += " (it exists and is not a folder)";
    return s;
  }
  Request r;
  r.access = kFolder;
  r.disposition = FILE_OPEN_IF;
  r.options = FILE_DIRECTORY_FILE;
  OwnedHandle made;
  std::wstring path;
  return impl_->open_in(dir ? dir.get() : impl_->root_handle.get(), dir_path, last, r, rel, made, path);
}

JailStatus FileJail::create_new(const std::string& rel, OwnedFile& file) const {
  if (!plain_relative(rel) || rel.empty())
    return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  Request r;
  r.access = GENERIC_READ | GENERIC_WRITE | SYNCHRONIZE;
  r.disposition = FILE_CREATE;
  r.options = FILE_NON_DIRECTORY_FILE;
  r.share = FILE_SHARE_READ | FILE_SHARE_DELETE;
  OwnedHandle h;
  if (JailStatus s = impl_->open(rel, r, h); !s) return s;
  file = OwnedFile(h.release());
  return {};
}

JailStatus FileJail::rename_new(const std::string& from, const std::string& to) const {
  if (!plain_relative(from) || !plain_relative(to) || from.empty() || to.empty())
    return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  Request r;
  r.access = DELETE | SYNCHRONIZE | FILE_READ_ATTRIBUTES;
  OwnedHandle source;
  if (JailStatus s = impl_->open(from, r, source); !s) return s;
  OwnedHandle to_dir;
  std::wstring to_path;
  std::string to_name;
  if (JailStatus s = impl_->walk_to_parent(to, false, to_dir, to_path, to_name); !s) return s;
  const std::wstring wide = windows::to_wide(to_name);
  if (!windows_name(wide)) return refused(JailError::kNotAllowed, "'" + to + "' is not a name Windows can hold");
  // FILE_RENAME_INFO with the name after it; never replacing, relative to
  // the checked folder's handle.
  std::vector<unsigned char> buf(sizeof(FILE_RENAME_INFO) + wide.size() * sizeof(wchar_t));
  auto* info = reinterpret_cast<FILE_RENAME_INFO*>(buf.data());
  info->ReplaceIfExists = FALSE;
  info->RootDirectory = to_dir ? to_dir.get() : impl_->root_handle.get();
  info->FileNameLength = DWORD(wide.size() * sizeof(wchar_t));
  std::copy(wide.begin(), wide.end(), info->FileName);
  IO_STATUS_BLOCK io{};
  const NTSTATUS st = NtSetInformationFile(source.get(), &io, info, ULONG(buf.size()),
                                           static_cast<FILE_INFORMATION_CLASS>(10 /* FileRenameInformation */));
  if (st < 0) return failure_status(st, "cannot rename '" + from + "' to '" + to + "'");
  return {};
}

JailStatus FileJail::remove(const std::string& rel) const {
  if (!plain_relative(rel) || rel.empty())
    return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  Request r;
  r.access = DELETE | SYNCHRONIZE | FILE_READ_ATTRIBUTES;
  r.options = FILE_NON_DIRECTORY_FILE;
  OwnedHandle h;
  if (JailStatus s = impl_->open(rel, r, h); !s) return s;
  FILE_DISPOSITION_INFO gone{};
  gone.DeleteFile = TRUE;
  if (!SetFileInformationByHandle(h.get(), FileDispositionInfo, &gone, sizeof gone))
    return failure_last_error("cannot remove '" + rel + "'");
  return {};
}

std::optional<uint64_t> FileJail::free_bytes() const {
  ULARGE_INTEGER mine{};
  if (!GetDiskFreeSpaceExW(impl_->root_path.c_str(), &mine, nullptr, nullptr)) return std::nullopt;
  return uint64_t(mine.QuadPart);
}

JailStatus FileJail::sync(const OwnedFile& file) {
  if (!FlushFileBuffers(file.get())) return failure_last_error("cannot flush the file to the disk");
  return {};
}

}  // namespace voxl::platform
