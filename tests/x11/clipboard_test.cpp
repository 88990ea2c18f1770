// The CLIPBOARD selection both ways against a private Xvfb, with xclip as
// the application on the other side. The loop runs on its own thread here;
// the test talks to the clipboard through it.
#include <gtest/gtest.h>


#include <xcb/xcb.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "platform/child_process.h"
#include "platform/x11/virtual_display.h"
#include "platform/x11/selection_clipboard.h"
#include "x11_test_support.h"
#include "xclip.h"

namespace voxl::input {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
using testing::run_xclip;
using testing::xclip_owner;

class ClipboardTest : public ::testing::Test {
 protected:
  void start(size_t max_bytes = kMaxClipboardBytes,
             std::chrono::milliseconds idle_limit = platform::x11::SelectionClipboard::kIdleLimit) {
    platform::x11::VirtualDisplayOptions o;
    o.size = {320, 240};
    xvfb_ = std::make_unique<platform::x11::VirtualDisplay>(o);
    log_ = testing::make_captured_log();
    loop_ = std::thread([this] { io_.run(); });
    on_loop([&] {
      clipboard_ =
          std::make_unique<platform::x11::SelectionClipboard>(io_, xvfb_->name(), log_.log, max_bytes, true, idle_limit);
      clipboard_->set_listener({[this](const ClipboardContent& c) {
                                  std::lock_guard lock(mu_);
                                  copied_.push_back(c);
                                  cv_.notify_all();
                                },
                                [this](const std::string& m) {
                                  std::lock_guard lock(mu_);
                                  refused_.push_back(m);
                                  cv_.notify_all();
                                }});
    });
  }

  void TearDown() override {
    if (loop_.joinable()) {
      on_loop([&] { clipboard_.reset(); });
      work_.reset();
      io_.stop();
      loop_.join();
    }
  }

  template <class F>
  void on_loop(F f) {
    std::promise<void> done;
    asio::post(io_, [&] {
      f();
      done.set_value();
    });
    done.get_future().wait();
  }

  // Waits until something logged contains `text`.
  bool wait_logged(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      const auto m = log_.messages();
      if (std::any_of(m.begin(), m.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; }))
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // Waits for the listener to have been called `n` times in all.
  bool wait_events(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(30), [&] { return copied_.size() + refused_.size() >= n; });
  }

  bool offer(ClipboardContent c) {
    bool ok = false;
    std::string error;
    on_loop([&] { ok = clipboard_->offer(std::move(c), error); });
    return ok;
  }

  std::unique_ptr<platform::x11::VirtualDisplay> xvfb_;
  testing::CapturedLog log_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_ = asio::make_work_guard(io_);
  std::thread loop_;
  std::unique_ptr<platform::x11::SelectionClipboard> clipboard_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<ClipboardContent> copied_;
  std::vector<std::string> refused_;
};

TEST_F(ClipboardTest, TextCopiedOnTheDesktopReachesVoxl) {
  start();
  auto owner = xclip_owner(xvfb_->name(), "copied on X: héllo");
  ASSERT_TRUE(wait_events(1));
  std::lock_guard lock(mu_);
  ASSERT_EQ(copied_.size(), 1u);
  EXPECT_EQ(copied_[0], (ClipboardContent{"text/plain", "copied on X: héllo"}));
}

TEST_F(ClipboardTest, LargeTextComesInPieces) {
  start();
  std::string big(3 * 1024 * 1024, 'x');  // past xclip's single-request size: INCR
  for (size_t i = 0; i < big.size(); i += 997) big[i] = char('a' + i % 26);
  auto owner = xclip_owner(xvfb_->name(), big);
  ASSERT_TRUE(wait_events(1));
  std::lock_guard lock(mu_);
  ASSERT_EQ(copied_.size(), 1u) << (refused_.empty() ? "" : refused_[0]);
  EXPECT_EQ(copied_[0].data.size(), big.size());
  EXPECT_TRUE(copied_[0].data == big);
  const auto logged = log_.messages();
  EXPECT_TRUE(std::any_of(logged.begin(), logged.end(), [](const std::string& m) { return m.find("INCR") != std::string::npos; }))
      << "xclip should have sent it with INCR";
}

TEST_F(ClipboardTest, ContentOverTheLimitIsRefusedWithAMessage) {
  start(1024 * 1024);
  auto owner = xclip_owner(xvfb_->name(), std::string(2 * 1024 * 1024, 'y'));
  ASSERT_TRUE(wait_events(1));
  std::lock_guard lock(mu_);
  EXPECT_TRUE(copied_.empty());
  ASSERT_EQ(refused_.size(), 1u);
  EXPECT_NE(refused_[0].find("2.0 MB, more than the 1.0 MB limit"), std::string::npos) << refused_[0];
}

TEST_F(ClipboardTest, ImagesCopiedOnTheDesktopArePng) {
  start();
  const std::string png("\x89PNG\r\n\x1a\n-not-really-an-image-\0-\xff", 32);
  auto owner = xclip_owner(xvfb_->name(), png, "image/png");
  ASSERT_TRUE(wait_events(1));
  std::lock_guard lock(mu_);
  ASSERT_EQ(copied_.size(), 1u);
  EXPECT_EQ(copied_[0].mime, "image/png");
  EXPECT_TRUE(copied_[0].data == png);
}

TEST_F(ClipboardTest, TextFromAViewerPastesOnTheDesktop) {
  start();
  ASSERT_TRUE(offer({"text/plain", "from the browser: ünïcode ✓"}));
  const testing::XclipOutput targets = run_xclip(xvfb_->name(), {"-o", "-t", "TARGETS"});
  EXPECT_NE(targets.out.find("UTF8_STRING"), std::string::npos) << targets.out;
  const testing::XclipOutput text = run_xclip(xvfb_->name(), {"-o"});
  ASSERT_TRUE(text.exited);
  EXPECT_EQ(text.out, "from the browser: ünïcode ✓");
  // Voxl's own ownership is not reported back as a desktop copy.
  std::lock_guard lock(mu_);
  EXPECT_TRUE(copied_.empty());
}

TEST_F(ClipboardTest, ImagesFromAViewerPasteAsPng) {
  start();
  const std::string png("\x89PNG\r\n\x1a\n\0\x01\x02", 11);
  ASSERT_TRUE(offer({"image/png", png}));
  const testing::XclipOutput targets = run_xclip(xvfb_->name(), {"-o", "-t", "TARGETS"});
  EXPECT_NE(targets.out.find("image/png"), std::string::npos) << targets.out;
  EXPECT_EQ(targets.out.find("UTF8_STRING"), std::string::npos) << targets.out;
  const testing::XclipOutput got = run_xclip(xvfb_->name(), {"-o", "-t", "image/png"});
  EXPECT_TRUE(got.out == png);
}

// A bare X client on `display` with a window that sees property changes.
struct RawClient {
  explicit RawClient(const std::string& display) : c(xcb_connect(display.c_str(), nullptr)) {
    if (xcb_connection_has_error(c)) throw std::runtime_error("cannot connect to " + display);
    const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    window = xcb_generate_id(c);
    const uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY,
                      XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK, &mask);
    xcb_flush(c);
  }
  ~RawClient() { xcb_disconnect(c); }
  xcb_atom_t atom(const char* name) {
    xcb_intern_atom_reply_t* r = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, uint16_t(strlen(name)), name), nullptr);
    const xcb_atom_t a = r ? r->atom : XCB_NONE;
    free(r);
    return a;
  }
  // The next event of `type` (others are dropped), or null after 30 s.
  xcb_generic_event_t* wait_for(uint8_t type) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      xcb_generic_event_t* ev = xcb_poll_for_event(c);
      if (!ev) {
        pollfd p{xcb_get_file_descriptor(c), POLLIN, 0};
        poll(&p, 1, 100);
        continue;
      }
      if ((ev->response_type & 0x7f) == type) return ev;
      free(ev);
    }
    return nullptr;
  }
  xcb_connection_t* c;
  xcb_window_t window;
};

// An application takes voxl's offer, and before voxl's loop has handled the
// SelectionClear that says so, a viewer pastes again (a loaded machine: the
// WebSocket message first, the X event after). The old clear must not end
// the new offer: voxl owns the clipboard and hands out the new text.
TEST_F(ClipboardTest, AClearStillQueuedFromAnEarlierOfferKeepsTheNewOne) {
  start();
  ASSERT_TRUE(offer({"text/plain", "first"}));
  RawClient other(xvfb_->name());
  const xcb_atom_t clipboard = other.atom("CLIPBOARD");
  bool ok = false;
  std::string error;
  on_loop([&] {
    // On the loop thread, so voxl handles no X event in between: the
    // SelectionClear waits in its connection until offer() reads it.
    xcb_set_selection_owner(other.c, other.window, clipboard, XCB_CURRENT_TIME);
    free(xcb_get_input_focus_reply(other.c, xcb_get_input_focus(other.c), nullptr));
    ok = clipboard_->offer({"text/plain", "second"}, error);
  });
  ASSERT_TRUE(ok) << error;
  const testing::XclipOutput text = run_xclip(xvfb_->name(), {"-o"});
  ASSERT_TRUE(text.exited);
  EXPECT_EQ(text.out, "second");
}

TEST_F(ClipboardTest, ARequestorThatStopsReadingAnIncrTransferIsDropped) {
  // Past one X request (16 MB with BIG-REQUESTS): voxl must send it in pieces.
  start(32 * 1024 * 1024, std::chrono::milliseconds(500));
  ASSERT_TRUE(offer({"text/plain", std::string(17 * 1024 * 1024, 'i')}));
  RawClient paster(xvfb_->name());
  const xcb_atom_t clipboard = paster.atom("CLIPBOARD"), utf8 = paster.atom("UTF8_STRING"),
                   incr = paster.atom("INCR"), prop = paster.atom("PASTE_HERE");
  xcb_convert_selection(paster.c, paster.window, clipboard, utf8, prop, XCB_CURRENT_TIME);
  xcb_flush(paster.c);
  xcb_generic_event_t* notify = paster.wait_for(XCB_SELECTION_NOTIFY);
  ASSERT_NE(notify, nullptr);
  free(notify);
  xcb_get_property_reply_t* r =
      xcb_get_property_reply(paster.c, xcb_get_property(paster.c, 0, paster.window, prop, XCB_ATOM_ANY, 0, 1), nullptr);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->type, incr) << "voxl should announce the transfer with INCR";
  free(r);
  // The paster never deletes the announcement, so the transfer never starts.
  EXPECT_TRUE(wait_logged("stopped reading what it pasted")) << "the stalled transfer was kept";
  // Deleting it now starts nothing: voxl has let the transfer go.
  xcb_delete_property(paster.c, paster.window, prop);
  xcb_flush(paster.c);
  on_loop([] {});
  // A new paste is served as usual.
  const testing::XclipOutput text = run_xclip(xvfb_->name(), {"-o"});
  ASSERT_TRUE(text.exited);
  EXPECT_EQ(text.out.size(), size_t(17 * 1024 * 1024));
}

TEST_F(ClipboardTest, AnOwnerThatStopsSendingPiecesIsDroppedAndSaysSo) {
  start(kMaxClipboardBytes, std::chrono::milliseconds(500));
  RawClient owner(xvfb_->name());
  const xcb_atom_t clipboard = owner.atom("CLIPBOARD"), targets = owner.atom("TARGETS"),
                   utf8 = owner.atom("UTF8_STRING"), incr = owner.atom("INCR"), atom = owner.atom("ATOM");
  xcb_set_selection_owner(owner.c, owner.window, clipboard, XCB_CURRENT_TIME);
  xcb_flush(owner.c);
  // Answer TARGETS with UTF8_STRING, then UTF8_STRING with an INCR
  // announcement, and send no piece after it.
  for (int answered = 0; answered < 2;) {
    xcb_generic_event_t* ev = owner.wait_for(XCB_SELECTION_REQUEST);
    ASSERT_NE(ev, nullptr) << "voxl did not ask for the clipboard";
    const auto* req = reinterpret_cast<xcb_selection_request_event_t*>(ev);
    if (req->target == targets) {
      const xcb_atom_t list[] = {targets, utf8};
      xcb_change_property(owner.c, XCB_PROP_MODE_REPLACE, req->requestor, req->property, atom, 32, 2, list);
    } else {
      const uint32_t size = 100000;
      xcb_change_property(owner.c, XCB_PROP_MODE_REPLACE, req->requestor, req->property, incr, 32, 1, &size);
    }
    xcb_selection_notify_event_t reply{};
    reply.response_type = XCB_SELECTION_NOTIFY;
    reply.time = req->time;
    reply.requestor = req->requestor;
    reply.selection = req->selection;
    reply.target = req->target;
    reply.property = req->property;
    xcb_send_event(owner.c, 0, req->requestor, XCB_EVENT_MASK_NO_EVENT, reinterpret_cast<const char*>(&reply));
    xcb_flush(owner.c);
    answered += req->target == targets || req->target == utf8;
    free(ev);
  }
  ASSERT_TRUE(wait_events(1));
  std::lock_guard lock(mu_);
  ASSERT_EQ(refused_.size(), 1u);
  EXPECT_NE(refused_[0].find("stopped sending"), std::string::npos) << refused_[0];
  EXPECT_TRUE(copied_.empty());
}

TEST_F(ClipboardTest, OffersOverTheLimitAreRefused) {
  start(1024);
  std::string error;
  bool ok = true;
  on_loop([&] { ok = clipboard_->offer({"text/plain", std::string(4096, 'z')}, error); });
  EXPECT_FALSE(ok);
  EXPECT_NE(error.find("limit"), std::string::npos) << error;
}

}  // namespace
}  // namespace voxl::input
