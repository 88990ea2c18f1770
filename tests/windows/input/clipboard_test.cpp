// WindowsClipboard both ways: what it offers, other programs read (here:
// the test, through OpenClipboard/GetClipboardData); what they copy, its
// listener reports. Text, and a picture as PNG and CF_DIB.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <cstring>
#include <optional>

#include "base/logging.h"
#include "platform/windows/input/clipboard_formats.h"
#include "platform/windows/input/wic_png.h"
#include "platform/windows/input/windows_clipboard.h"
#include "platform/windows/wide_string.h"
#include "input_window.h"

namespace voxl::platform::windows {
namespace {

using input::ClipboardContent;

// What a program copying to the clipboard does.
void set_clipboard(UINT format, const void* bytes, size_t size) {
  ASSERT_TRUE(open_clipboard(nullptr));
  EmptyClipboard();
  HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE, size);
  std::memcpy(GlobalLock(h), bytes, size);
  GlobalUnlock(h);
  ASSERT_NE(SetClipboardData(format, h), nullptr);
  CloseClipboard();
}

void set_clipboard_text(const std::wstring& text) {
  set_clipboard(CF_UNICODETEXT, text.c_str(), (text.size() + 1) * sizeof(wchar_t));
}

std::optional<std::string> read_clipboard(UINT format) {
  if (!open_clipboard(nullptr)) return std::nullopt;
  std::optional<std::string> out;
  if (HANDLE h = GetClipboardData(format)) {
    const void* p = GlobalLock(h);
    out = std::string(static_cast<const char*>(p), GlobalSize(h));
    GlobalUnlock(h);
  }
  CloseClipboard();
  return out;
}

// 3 x 2 pixels, each channel different.
BgraImage sample_image() {
  BgraImage img;
  img.width = 3;
  img.height = 2;
  for (int i = 0; i < 6; ++i) {
    img.bgra.push_back(uint8_t(10 + i));       // B
    img.bgra.push_back(uint8_t(100 + i * 20));  // G
    img.bgra.push_back(uint8_t(200 + i * 5));  // R
    img.bgra.push_back(255);
  }
  return img;
}

class ClipboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Start from an empty clipboard owned by nobody in particular.
    ASSERT_TRUE(open_clipboard(nullptr));
    EmptyClipboard();
    CloseClipboard();
  }
  std::unique_ptr<WindowsClipboard> make(size_t max_bytes = input::kMaxClipboardBytes, bool watch = true) {
    auto c = std::make_unique<WindowsClipboard>(io_, log_, max_bytes, watch);
    c->set_listener({[this](const ClipboardContent& content) { copied_.push_back(content); },
                     [this](const std::string& why) { refused_.push_back(why); }});
    return c;
  }
  bool wait_copied(size_t n) {
    return test::run_until(io_, [&] { return copied_.size() >= n; });
  }

  Logger log_ = make_stderr_logger("test");
  boost::asio::io_context io_;
  std::vector<ClipboardContent> copied_;
  std::vector<std::string> refused_;
};

TEST_F(ClipboardTest, OfferedTextIsWhatOthersPaste) {
  auto clipboard = make();
  std::string error;
  ASSERT_TRUE(clipboard->offer({"text/plain", "h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac"}, error)) << error;
  const auto bytes = read_clipboard(CF_UNICODETEXT);
  ASSERT_TRUE(bytes);
  std::wstring wide(bytes->size() / 2, L'\0');
  std::memcpy(wide.data(), bytes->data(), wide.size() * 2);
  EXPECT_EQ(std::wstring(wide.c_str()), L"h\u00e9llo w\u00f6rld \u20ac");
}

TEST_F(ClipboardTest, CopiedTextReachesTheListenerButNotItsOwnOffer) {
  auto clipboard = make();
  std::string error;
  ASSERT_TRUE(clipboard->offer({"text/plain", "mine"}, error)) << error;
  set_clipboard_text(L"theirs \u00e9");
  ASSERT_TRUE(wait_copied(1)) << "no copy reported";
  // The first report is the program's copy: voxl's own offer is not echoed.
  EXPECT_EQ(copied_[0], (ClipboardContent{"text/plain", "theirs \xc3\xa9"}));
  EXPECT_TRUE(refused_.empty());
}

TEST_F(ClipboardTest, OfferedPngIsABitmapToOthers) {
  auto clipboard = make();
  const BgraImage img = sample_image();
  std::string error;
  const auto png = encode_png(img, error);
  ASSERT_TRUE(png) << error;
  ASSERT_TRUE(clipboard->offer({"image/png", *png}, error)) << error;

  const auto registered = read_clipboard(png_clipboard_format());
  ASSERT_TRUE(registered);
  EXPECT_EQ(registered->substr(0, png->size()), *png);

  const auto dib = read_clipboard(CF_DIB);
  ASSERT_TRUE(dib);
  ASSERT_GE(dib->size(), sizeof(BITMAPINFOHEADER));
  BITMAPINFOHEADER h;
  std::memcpy(&h, dib->data(), sizeof(h));
  ASSERT_EQ(h.biWidth, 3);
  ASSERT_EQ(std::abs(h.biHeight), 2);
  ASSERT_EQ(h.biBitCount, 32);
  const bool bottom_up = h.biHeight > 0;
  const auto* px = reinterpret_cast<const uint8_t*>(dib->data()) + h.biSize;
  ASSERT_GE(dib->size(), h.biSize + 3 * 2 * 4);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      const int row = bottom_up ? 1 - y : y;
      const uint8_t* p = px + (row * 3 + x) * 4;
      const uint8_t* want = img.bgra.data() + (y * 3 + x) * 4;
      EXPECT_EQ(p[0], want[0]) << x << "," << y;
      EXPECT_EQ(p[1], want[1]) << x << "," << y;
      EXPECT_EQ(p[2], want[2]) << x << "," << y;
    }
}

TEST_F(ClipboardTest, CopiedBitmapReachesTheListenerAsPng) {
  auto clipboard = make();
  // A 24-bit bottom-up DIB of 3 x 2, rows padded to 4 bytes.
  const BgraImage img = sample_image();
  BITMAPINFOHEADER h{};
  h.biSize = sizeof(h);
  h.biWidth = 3;
  h.biHeight = 2;
  h.biPlanes = 1;
  h.biBitCount = 24;
  h.biCompression = BI_RGB;
  std::string dib(reinterpret_cast<const char*>(&h), sizeof(h));
  for (int y = 1; y >= 0; --y) {
    for (int x = 0; x < 3; ++x) dib.append(reinterpret_cast<const char*>(img.bgra.data() + (y * 3 + x) * 4), 3);
    dib.append(3, '\0');  // 9 bytes -> 12
  }
  set_clipboard(CF_DIB, dib.data(), dib.size());
  ASSERT_TRUE(wait_copied(1)) << (refused_.empty() ? "no copy reported" : refused_[0]);
  ASSERT_EQ(copied_[0].mime, "image/png");
  std::string error;
  const auto back = decode_png(copied_[0].data, error);
  ASSERT_TRUE(back) << error;
  ASSERT_EQ(back->width, 3);
  ASSERT_EQ(back->height, 2);
  EXPECT_EQ(back->bgra, img.bgra);
}

TEST_F(ClipboardTest, ContentOverTheLimitIsRefusedBothWays) {
  auto clipboard = make(16);
  std::string error;
  EXPECT_FALSE(clipboard->offer({"text/plain", std::string(100, 'x')}, error));
  EXPECT_NE(error.find("more than"), std::string::npos) << error;

  set_clipboard_text(std::wstring(100, L'y'));
  ASSERT_TRUE(test::run_until(io_, [&] { return !refused_.empty(); })) << "nothing refused";
  EXPECT_NE(refused_[0].find("more than"), std::string::npos) << refused_[0];
  EXPECT_TRUE(copied_.empty());
}

TEST_F(ClipboardTest, WithoutWatchNothingIsReported) {
  auto quiet = make(input::kMaxClipboardBytes, false);
  std::vector<ClipboardContent> seen;
  WindowsClipboard watcher(io_, log_, input::kMaxClipboardBytes, true);
  watcher.set_listener({[&](const ClipboardContent& c) { seen.push_back(c); }, {}});
  set_clipboard_text(L"copied");
  ASSERT_TRUE(test::run_until(io_, [&] { return !seen.empty(); }));
  io_.poll();
  EXPECT_TRUE(copied_.empty()) << "a clipboard that does not watch reported a copy";
  // It still offers.
  std::string error;
  EXPECT_TRUE(quiet->offer({"text/plain", "offered"}, error)) << error;
}

TEST_F(ClipboardTest, UnknownMimeIsRefused) {
  auto clipboard = make();
  std::string error;
  EXPECT_FALSE(clipboard->offer({"text/html", "<b>x</b>"}, error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace voxl::platform::windows
