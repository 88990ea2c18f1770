// input::Clipboard for X11: the CLIPBOARD selection, on its own XCB connection and
// a window of its own, run on the loop as events come (no polling).
//
// Desktop -> viewers: XFixes reports each new owner; voxl asks it for its
// TARGETS, then for image/png if offered, else UTF-8 text (UTF8_STRING,
// text/plain;charset=utf-8, or Latin-1 STRING converted), reading large
// transfers with the INCR protocol. Content over the size limit is dropped
// with a message that says so.
// Viewers -> desktop: voxl owns the selection on the viewer's behalf and
// answers applications' requests (TARGETS, TIMESTAMP, the text targets or
// image/png), with INCR for content larger than one X request.
//
// Transfers that stop moving expire: an INCR transfer (either way), or a
// request the owner never answers, without progress for `idle_limit` is
// dropped and what it holds freed, on a loop timer (no polling). At most
// kMaxOutgoing INCR transfers to requestors run at once; content from the
// desktop is bounded by `max_bytes`, checked before anything is kept.
//
// Threads: loop thread only; destroy before the io_context. Blocking: one
// round trip per step of a transfer (a property read); none waits for
// another client.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "input/clipboard.h"
#include "input/progress_deadlines.h"

namespace boost::asio {
class io_context;
}

namespace voxl::platform::x11 {
class XcbConnection;
}

namespace voxl::platform::x11 {

class XcbEventWatch;

class SelectionClipboard final : public input::Clipboard {
 public:
  // Throws std::runtime_error when the display cannot be opened or lacks
  // XFIXES. Without `read_desktop` voxl never asks what applications copy
  // (the clipboard flows only into the desktop).
  SelectionClipboard(boost::asio::io_context& io, const std::string& display, Logger log,
                     size_t max_bytes = input::kMaxClipboardBytes, bool read_desktop = true,
                     std::chrono::milliseconds idle_limit = kIdleLimit);
  ~SelectionClipboard() override;

  void set_listener(Listener listener) override;
  void set_lost_handler(std::function<void()> on_lost) override { on_lost_ = std::move(on_lost); }
  bool offer(input::ClipboardContent content, std::string& error) override;

  // A transfer without progress for this long is dropped.
  static constexpr std::chrono::milliseconds kIdleLimit{15000};
  // INCR transfers to requestors served at once; more are refused.
  static constexpr size_t kMaxOutgoing = 8;

 private:
  struct Atoms;
  struct Outgoing;  // an INCR transfer to a requestor
  struct Timer;
  using TransferKey = std::pair<uint32_t, uint32_t>;  // (requestor window, property); kFetchKey: ours
  enum class Fetch { kIdle, kTargets, kData, kIncr };

  void on_event(const void* event);
  void on_owner_change(uint32_t owner, uint32_t timestamp);
  void on_selection_notify(const void* event);
  void on_property_notify(const void* event);
  void on_selection_request(const void* event);
  void request(uint32_t target, uint32_t timestamp);
  void finish_fetch();
  void finish_idle();  // the fetch ends, nothing reported
  void fail_fetch(const std::string& why);
  bool answer(const void* request_event);
  void send_chunk(Outgoing& t);
  std::string too_large(size_t bytes) const;
  // Deadlines: a transfer moved on, ended, or may have expired.
  void progressed(const TransferKey& key);
  void arm_timer();
  void on_timer();
  void drop_outgoing(uint32_t requestor, uint32_t property);

  std::unique_ptr<platform::x11::XcbConnection> conn_;
  Logger log_;
  size_t max_bytes_;
  std::unique_ptr<Atoms> atoms_;
  uint32_t window_ = 0;
  uint8_t xfixes_first_event_ = 0;
  size_t max_request_bytes_ = 0;
  std::unique_ptr<XcbEventWatch> watch_;
  Listener listener_;
  std::function<void()> on_lost_;
  input::ProgressDeadlines<TransferKey> deadlines_;
  std::unique_ptr<Timer> timer_;

  // What voxl offers while it owns the selection.
  std::shared_ptr<const input::ClipboardContent> offered_;
  // The request number of voxl's latest SetSelectionOwner: a SelectionClear
  // generated before it concerns an earlier offer.
  uint32_t owned_since_ = 0;
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Outgoing>> outgoing_;  // (window, property)

  // The transfer from the current owner.
  Fetch fetch_ = Fetch::kIdle;
  uint32_t fetch_target_ = 0;
  std::string fetch_mime_;
  std::string fetch_data_;
  bool fetch_latin1_ = false;
};

}  // namespace voxl::platform::x11
