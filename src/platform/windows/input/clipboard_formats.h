// What voxl reads from and writes to the Windows clipboard, in the formats
// applications use: text as CF_UNICODETEXT (UTF-8 text/plain to voxl),
// images as the registered "PNG" format when an application offers it,
// else as a device-independent bitmap (CF_DIBV5, CF_DIB) turned into PNG.
// Offering a PNG sets "PNG" (the bytes as they are) and CF_DIB (decoded,
// 32 bits, bottom-up), so applications that know only bitmaps paste it too.
//
// The functions work on a clipboard opened by the caller (open_clipboard);
// none keeps it open or waits for anything but the clipboard.
//
// Threads: any one thread at a time; WIC work initialises COM for itself.
#pragma once

#include <windows.h>

#include <optional>
#include <string>

#include "input/clipboard.h"

namespace voxl::platform::windows {

// OpenClipboard fails while another program holds it open; it is retried
// kOpenAttempts times kOpenRetryWait apart (there is no event saying the
// clipboard was closed), so a caller waits at most ~kOpenAttempts *
// kOpenRetryWait milliseconds.
inline constexpr int kOpenAttempts = 10;
inline constexpr DWORD kOpenRetryWait = 15;  // ms
bool open_clipboard(HWND owner);

// The registered "PNG" clipboard format; 0 when it cannot be registered.
UINT png_clipboard_format();

struct ClipboardRead {
  std::optional<input::ClipboardContent> content;  // set: something voxl carries
  std::string refused;                             // set: something it cannot, and why
};
// Reads the open clipboard. Nothing either way when it holds nothing voxl
// knows (files, private formats).
ClipboardRead read_open_clipboard(size_t max_bytes);

// Empties the open clipboard and puts `content` there.
bool write_open_clipboard(const input::ClipboardContent& content, std::string& error);

// "the clipboard holds 9.1 MB, more than the 8.0 MB voxl carries".
std::string too_large(size_t bytes, size_t max_bytes);

}  // namespace voxl::platform::windows
