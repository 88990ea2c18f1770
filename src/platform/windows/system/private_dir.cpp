// Private folders on Windows: under the user's temporary folder, made by
// CreateDirectoryW with the default security. In the user profile that
// inherits the profile's ACL: the user, SYSTEM and Administrators only. The
// check is that the path is a real folder (no junction or symbolic link)
// owned by our user (or by the token's default owner, Administrators when
// elevated); the ACL itself is not inspected.
#include "platform/private_dir.h"

#include <windows.h>
// After windows.h.
#include <aclapi.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "platform/windows/wide_string.h"
#include "platform/windows/win_error.h"

namespace voxl::platform {

namespace {

using windows::describe_last_error;
using windows::to_utf8;
using windows::to_wide;

// The token's user or default owner, as a buffer holding a TOKEN_USER or
// TOKEN_OWNER; empty when it cannot be read.
std::vector<unsigned char> token_info(TOKEN_INFORMATION_CLASS what) {
  HANDLE token = nullptr;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return {};
  DWORD size = 0;
  GetTokenInformation(token, what, nullptr, 0, &size);
  std::vector<unsigned char> buf(size);
  if (size == 0 || !GetTokenInformation(token, what, buf.data(), size, &size)) buf.clear();
  CloseHandle(token);
  return buf;
}

bool owned_by_us(PSID owner) {
  const auto user = token_info(TokenUser);
  if (!user.empty() && EqualSid(owner, reinterpret_cast<const TOKEN_USER*>(user.data())->User.Sid)) return true;
  const auto def = token_info(TokenOwner);
  return !def.empty() && EqualSid(owner, reinterpret_cast<const TOKEN_OWNER*>(def.data())->Owner);
}

std::string temp_base() {
  wchar_t buf[MAX_PATH + 2];
  const DWORD n = GetTempPathW(MAX_PATH + 2, buf);
  if (n == 0 || n > MAX_PATH + 1) throw std::runtime_error(describe_last_error("GetTempPathW"));
  return to_utf8(std::wstring_view(buf, n));  // ends with a backslash
}

}  // namespace

std::string private_dir_problem(const std::string& path) {
  const std::wstring wide = to_wide(path);
  const DWORD attrs = GetFileAttributesW(wide.c_str());
  if (attrs == INVALID_FILE_ATTRIBUTES) return "cannot be examined: " + describe_last_error("GetFileAttributesW");
  if (attrs & FILE_ATTRIBUTE_REPARSE_POINT) return "is a symbolic link or junction";
  if (!(attrs & FILE_ATTRIBUTE_DIRECTORY)) return "is not a directory";
  PSID owner = nullptr;
  PSECURITY_DESCRIPTOR sd = nullptr;
  const DWORD r = GetNamedSecurityInfoW(wide.c_str(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION, &owner, nullptr,
                                        nullptr, nullptr, &sd);
  if (r != ERROR_SUCCESS) return "has an owner that cannot be read: " + windows::system_message(r);
  const bool ours = owner && owned_by_us(owner);
  LocalFree(sd);
  return ours ? std::string() : "is owned by another user, not by voxl's";
}

std::optional<std::string> usable_xdg_runtime_dir() { return std::nullopt; }

std::string user_runtime_dir() {
  const std::string path = temp_base() + "voxl";
  if (!CreateDirectoryW(to_wide(path).c_str(), nullptr) && GetLastError() != ERROR_ALREADY_EXISTS)
    throw std::runtime_error(describe_last_error("cannot create " + path));
  if (const std::string why = private_dir_problem(path); !why.empty())
    throw std::runtime_error(path + " " + why + "; remove it");
  return path;
}

std::string make_private_temp_dir(const std::string& prefix) {
  const std::string base = temp_base();
  std::random_device random;
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path = base + prefix;
    for (int i = 0; i < 8; ++i) path += kLetters[random() % (sizeof kLetters - 1)];
    if (CreateDirectoryW(to_wide(path).c_str(), nullptr)) return path;
    if (GetLastError() != ERROR_ALREADY_EXISTS)
      throw std::runtime_error(describe_last_error("cannot create a private directory in " + base));
  }
  throw std::runtime_error("cannot create a private directory in " + base + ": every name tried exists");
}

}  // namespace voxl::platform
