#include "platform/windows/win_error.h"

#include <windows.h>

#include <cstdio>

#include "platform/windows/wide_string.h"

namespace voxl::platform::windows {

namespace {

std::string hex(uint32_t code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(code));
  return buf;
}

// WASAPI's errors, which the system has no text for: their names say more
// than the number.
struct NamedCode {
  uint32_t code;
  const char* name;
};
constexpr NamedCode kAudioClientErrors[] = {
    {0x88890001, "AUDCLNT_E_NOT_INITIALIZED"},       {0x88890002, "AUDCLNT_E_ALREADY_INITIALIZED"},
    {0x88890003, "AUDCLNT_E_WRONG_ENDPOINT_TYPE"},   {0x88890004, "AUDCLNT_E_DEVICE_INVALIDATED"},
    {0x88890005, "AUDCLNT_E_NOT_STOPPED"},           {0x88890006, "AUDCLNT_E_BUFFER_TOO_LARGE"},
    {0x88890007, "AUDCLNT_E_OUT_OF_ORDER"},          {0x88890008, "AUDCLNT_E_UNSUPPORTED_FORMAT"},
    {0x88890009, "AUDCLNT_E_INVALID_SIZE"},          {0x8889000A, "AUDCLNT_E_DEVICE_IN_USE"},
    {0x8889000B, "AUDCLNT_E_BUFFER_OPERATION_PENDING"}, {0x8889000C, "AUDCLNT_E_THREAD_NOT_REGISTERED"},
    {0x8889000E, "AUDCLNT_E_EXCLUSIVE_MODE_NOT_ALLOWED"}, {0x8889000F, "AUDCLNT_E_ENDPOINT_CREATE_FAILED"},
    {0x88890010, "AUDCLNT_E_SERVICE_NOT_RUNNING"},   {0x88890011, "AUDCLNT_E_EVENTHANDLE_NOT_EXPECTED"},
    {0x88890012, "AUDCLNT_E_EXCLUSIVE_MODE_ONLY"},   {0x88890013, "AUDCLNT_E_BUFDURATION_PERIOD_NOT_EQUAL"},
    {0x88890014, "AUDCLNT_E_EVENTHANDLE_NOT_SET"},   {0x88890015, "AUDCLNT_E_INCORRECT_BUFFER_SIZE"},
    {0x88890016, "AUDCLNT_E_BUFFER_SIZE_ERROR"},     {0x88890017, "AUDCLNT_E_CPUUSAGE_EXCEEDED"},
    {0x88890018, "AUDCLNT_E_BUFFER_ERROR"},          {0x88890019, "AUDCLNT_E_BUFFER_SIZE_NOT_ALIGNED"},
    {0x88890020, "AUDCLNT_E_INVALID_DEVICE_PERIOD"}, {0x88890021, "AUDCLNT_E_INVALID_STREAM_FLAG"},
    {0x88890026, "AUDCLNT_E_RESOURCES_INVALIDATED"},
};

}  // namespace

std::string system_message(uint32_t code) {
  for (const NamedCode& c : kAudioClientErrors)
    if (c.code == code) return c.name;
  wchar_t* text = nullptr;
  const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                     FORMAT_MESSAGE_IGNORE_INSERTS,
                                 nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  if (n == 0 || !text) return "error " + hex(code);
  std::wstring w(text, n);
  LocalFree(text);
  while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L' ' || w.back() == L'.'))
    w.pop_back();
  return to_utf8(w);
}

std::string describe_hresult(const std::string& what, long hr) {
  const auto code = static_cast<uint32_t>(hr);
  return what + ": " + system_message(code) + " (" + hex(code) + ")";
}

std::string describe_last_error(const std::string& what) {
  const DWORD e = GetLastError();
  return what + ": " + system_message(e) + " (" + hex(e) + ")";
}

}  // namespace voxl::platform::windows
