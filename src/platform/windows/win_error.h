// Windows error codes in words, for logs and exceptions: HRESULTs (COM,
// DXGI, WASAPI) and GetLastError() values, as "<what>: <system text>
// (0x887A0026)".
//
// Threads: any; pure functions.
#pragma once

#include <cstdint>
#include <string>

namespace voxl::platform::windows {

// The system's message for `code` (an HRESULT or a Win32 error), in UTF-8,
// without the trailing line break; WASAPI's AUDCLNT_E_ names by name;
// "error 0x…" when the system has no text.
std::string system_message(uint32_t code);
// "<what>: <system text> (0x…)".
std::string describe_hresult(const std::string& what, long hr);
// The same for GetLastError() read now.
std::string describe_last_error(const std::string& what);

}  // namespace voxl::platform::windows
