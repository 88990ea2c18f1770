// input::Clipboard for a wlroots compositor, through wlr-data-control: the
// clipboard's offers are read (UTF-8 text first, else PNG) into what
// viewers get, and what viewers copy is offered to the desktop's programs
// as text or PNG. voxl's own offers carry a mime type of voxl's, so they
// are not read back as the desktop's.
//
// Bounded: one offer read at a time, up to `max_bytes` (more is refused
// with its reason); at most 8 programs pasting at once, each written to
// without blocking; an offer's mime types are kept up to 64.
//
// Threads: created, used and destroyed on the loop thread of `io` (its own
// Wayland connection, watched on the loop); listeners are called there.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/logging.h"
#include "input/clipboard.h"

struct zwlr_data_control_device_v1;
struct zwlr_data_control_offer_v1;
struct zwlr_data_control_source_v1;

namespace voxl::platform::wayland {

class WaylandDisplay;

// The mime type voxl's own offers carry.
inline constexpr const char* kOwnOfferMime = "application/x-voxl-offer";

// Which of an offer's mime types voxl reads, and what it makes of them:
// {offered type, kMimeText or kMimePng}; empty first when none is readable.
std::pair<std::string, std::string> readable_offer(const std::vector<std::string>& mimes);

class DataControlClipboard final : public input::Clipboard {
 public:
  // Throws std::runtime_error when the compositor cannot be reached or
  // has no data-control protocol. `watch` false: never reads the desktop's.
  DataControlClipboard(boost::asio::io_context& io, const std::string& display, Logger log, size_t max_bytes,
                       bool watch);
  ~DataControlClipboard() override;
  DataControlClipboard(const DataControlClipboard&) = delete;
  DataControlClipboard& operator=(const DataControlClipboard&) = delete;

  void set_listener(Listener listener) override { listener_ = std::move(listener); }
  bool offer(input::ClipboardContent content, std::string& error) override;
  void set_lost_handler(std::function<void()> on_lost) override { on_lost_ = std::move(on_lost); }

 private:
  struct Read;
  struct Send;
  static void on_data_offer(void* self, zwlr_data_control_device_v1*, zwlr_data_control_offer_v1* offer);
  static void on_selection(void* self, zwlr_data_control_device_v1*, zwlr_data_control_offer_v1* offer);
  static void on_finished(void* self, zwlr_data_control_device_v1*);
  static void on_primary(void* self, zwlr_data_control_device_v1*, zwlr_data_control_offer_v1* offer);
  static void on_offer_mime(void* self, zwlr_data_control_offer_v1* offer, const char* mime);
  static void on_send(void* self, zwlr_data_control_source_v1* source, const char* mime, int32_t fd);
  static void on_cancelled(void* self, zwlr_data_control_source_v1* source);

  void watch_display();
  void dispatch();
  void lose(const std::string& why);
  void read_selection(zwlr_data_control_offer_v1* offer);
  void continue_read(const std::shared_ptr<Read>& read);
  void continue_send(const std::shared_ptr<Send>& send);
  void drop_offer(zwlr_data_control_offer_v1* offer);

  boost::asio::io_context& io_;
  Logger log_;
  size_t max_bytes_;
  bool watch_;
  std::unique_ptr<WaylandDisplay> display_;
  zwlr_data_control_device_v1* device_ = nullptr;
  std::map<zwlr_data_control_offer_v1*, std::vector<std::string>> offers_;  // mime types each announced
  zwlr_data_control_offer_v1* selection_ = nullptr;
  zwlr_data_control_source_v1* source_ = nullptr;  // voxl's offer while it holds the clipboard
  std::shared_ptr<const input::ClipboardContent> offered_;
  std::shared_ptr<Read> read_;
  std::vector<std::shared_ptr<Send>> sends_;
  boost::asio::posix::stream_descriptor socket_;  // libwayland's descriptor, released (not closed) at the end
  Listener listener_;
  std::function<void()> on_lost_;
  bool lost_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::platform::wayland
