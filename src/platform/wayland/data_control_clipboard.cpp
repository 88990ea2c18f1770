#include "platform/wayland/data_control_clipboard.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/post.hpp>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <wayland-client.h>

#include "platform/wayland/wayland_display.h"
#include "wlr-data-control-unstable-v1-client.h"

namespace voxl::platform::wayland {

namespace asio = boost::asio;

namespace {

// Offers a program makes may name many types; more than this are not kept.
constexpr size_t kMaxMimes = 64;
constexpr size_t kMaxMimeLength = 256;
// Programs pasting at once.
constexpr size_t kMaxSends = 8;

constexpr const char* kTextMimes[] = {"text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"};

// write() to a pipe whose reader went away raises SIGPIPE: blocked around
// the call (the signal is thread-directed), and taken back if it came, so
// the write just fails with EPIPE.
ssize_t write_without_sigpipe(int fd, const char* data, size_t size) {
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  sigset_t pending_before;
  sigpending(&pending_before);
  const ssize_t n = ::write(fd, data, size);
  const int saved = errno;
  if (n < 0 && saved == EPIPE && !sigismember(&pending_before, SIGPIPE)) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe_only, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return n;
}

}  // namespace

std::pair<std::string, std::string> readable_offer(const std::vector<std::string>& mimes) {
  for (const char* text : kTextMimes)
    for (const std::string& m : mimes)
      if (m == text) return {m, std::string(input::kMimeText)};
  for (const std::string& m : mimes)
    if (m == input::kMimePng) return {m, std::string(input::kMimePng)};
  return {};
}

struct DataControlClipboard::Read {
  explicit Read(asio::io_context& io, int fd) : pipe(io, fd) {}
  asio::posix::stream_descriptor pipe;
  std::string kind;
  std::string data;
  std::array<char, 65536> buf{};
};

struct DataControlClipboard::Send {
  explicit Send(asio::io_context& io, int fd) : pipe(io, fd) {}
  asio::posix::stream_descriptor pipe;
  std::shared_ptr<const input::ClipboardContent> content;
  size_t at = 0;
};

DataControlClipboard::DataControlClipboard(asio::io_context& io, const std::string& display, Logger log,
                                           size_t max_bytes, bool watch)
    : io_(io),
      log_(std::move(log)),
      max_bytes_(max_bytes),
      watch_(watch),
      display_(std::make_unique<WaylandDisplay>(display)),
      socket_(io) {
  if (!display_->data_control() || !display_->seat())
    throw std::runtime_error("the Wayland compositor at " + display_->path() +
                             " does not share its clipboard with clients (no wlr-data-control)");
  static constexpr zwlr_data_control_device_v1_listener listener = {
      .data_offer = &DataControlClipboard::on_data_offer,
      .selection = &DataControlClipboard::on_selection,
      .finished = &DataControlClipboard::on_finished,
      .primary_selection = &DataControlClipboard::on_primary,
  };
  device_ = zwlr_data_control_manager_v1_get_data_device(display_->data_control(), display_->seat());
  zwlr_data_control_device_v1_add_listener(device_, &listener, this);
  // What the clipboard holds now is announced at once: not a copy made
  // while voxl watched, so not sent on.
  const bool watching = watch_;
  watch_ = false;
  display_->roundtrip();
  watch_ = watching;
  socket_.assign(display_->fd());
  watch_display();
}

DataControlClipboard::~DataControlClipboard() {
  *alive_ = false;
  read_.reset();
  sends_.clear();
  boost::system::error_code ignored;
  socket_.cancel(ignored);
  socket_.release();
  for (auto& [offer, mimes] : offers_) zwlr_data_control_offer_v1_destroy(offer);
  if (source_) zwlr_data_control_source_v1_destroy(source_);
  if (device_) zwlr_data_control_device_v1_destroy(device_);
}

void DataControlClipboard::watch_display() {
  socket_.async_wait(asio::posix::stream_descriptor::wait_read,
                     [this, alive = alive_](const boost::system::error_code& ec) {
                       if (!*alive || ec == asio::error::operation_aborted) return;
                       dispatch();
                       if (!lost_) watch_display();
                     });
}

void DataControlClipboard::dispatch() {
  if (!display_->dispatch_ready()) lose("the Wayland connection was lost: " + display_->error());
}

void DataControlClipboard::lose(const std::string& why) {
  if (lost_) return;
  lost_ = true;
  log_->warn("clipboard: {}", why);
  asio::post(io_, [this, alive = alive_] {
    if (*alive && on_lost_) on_lost_();
  });
}

void DataControlClipboard::on_data_offer(void* data, zwlr_data_control_device_v1*, zwlr_data_control_offer_v1* offer) {
  auto* self = static_cast<DataControlClipboard*>(data);
  static constexpr zwlr_data_control_offer_v1_listener listener = {.offer = &DataControlClipboard::on_offer_mime};
  self->offers_[offer];
  zwlr_data_control_offer_v1_add_listener(offer, &listener, self);
}

void DataControlClipboard::on_offer_mime(void* data, zwlr_data_control_offer_v1* offer, const char* mime) {
  auto* self = static_cast<DataControlClipboard*>(data);
  auto it = self->offers_.find(offer);
  if (it == self->offers_.end() || !mime) return;
  const std::string m(mime);
  if (it->second.size() < kMaxMimes && m.size() <= kMaxMimeLength) it->second.push_back(m);
}

void DataControlClipboard::drop_offer(zwlr_data_control_offer_v1* offer) {
  if (!offer) return;
  offers_.erase(offer);
  zwlr_data_control_offer_v1_destroy(offer);
}

void DataControlClipboard::on_selection(void* data, zwlr_data_control_device_v1*, zwlr_data_control_offer_v1* offer) {
  auto* self = static_cast<DataControlClipboard*>(data);
  if (self->selection_ && self->selection_ != offer) self->drop_offer(self->selection_);
  self->selection_ = offer;
  self->read_.reset();  // a read of the one before is no longer wanted
  if (!offer || !self->watch_) return;
  const auto& mimes = self->offers_[offer];
  for (const std::string& m : mimes)
    if (m == kOwnOfferMime) return;  // what voxl offered itself
  self->read_selection(offer);
}

void DataControlClipboard::on_primary(void* data, zwlr_data_control_device_v1*, zwlr_data_control_offer_v1* offer) {
  static_cast<DataControlClipboard*>(data)->drop_offer(offer);  // the primary selection is not carried
}

void DataControlClipboard::on_finished(void* data, zwlr_data_control_device_v1*) {
  static_cast<DataControlClipboard*>(data)->lose("the compositor ended the clipboard's device");
}

void DataControlClipboard::read_selection(zwlr_data_control_offer_v1* offer) {
  const auto [mime, kind] = readable_offer(offers_[offer]);
  if (mime.empty()) {
    if (listener_.refused) listener_.refused("the desktop copied something that is neither text nor a PNG image");
    return;
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    log_->warn("clipboard: cannot make a pipe to read the desktop's copy: {}", std::strerror(errno));
    return;
  }
  // libwayland keeps a duplicate of the descriptor with the request.
  zwlr_data_control_offer_v1_receive(offer, mime.c_str(), fds[1]);
  ::close(fds[1]);
  display_->send_requests();
  read_ = std::make_shared<Read>(io_, fds[0]);
  read_->kind = kind;
  continue_read(read_);
}

void DataControlClipboard::continue_read(const std::shared_ptr<Read>& read) {
  read->pipe.async_read_some(
      asio::buffer(read->buf), [this, read, alive = alive_](const boost::system::error_code& ec, size_t n) {
        if (!*alive || read_ != read) return;  // destroyed, or a newer copy took over
        if (!ec) {
          read->data.append(read->buf.data(), n);
          if (read->data.size() > max_bytes_) {
            read_.reset();
            if (listener_.refused)
              listener_.refused("the desktop copied more than " + std::to_string(max_bytes_ >> 20) +
                                " MiB, more than the clipboard carries");
            return;
          }
          continue_read(read);
          return;
        }
        read_.reset();
        if (ec == asio::error::eof && listener_.copied) listener_.copied({read->kind, std::move(read->data)});
      });
}

bool DataControlClipboard::offer(input::ClipboardContent content, std::string& error) {
  if (lost_) {
    error = "the Wayland clipboard is gone";
    return false;
  }
  if (content.data.size() > max_bytes_) {
    error = "more than the clipboard carries";
    return false;
  }
  const bool text = content.mime == input::kMimeText;
  if (!text && content.mime != input::kMimePng) {
    error = "only text and PNG images go to the Wayland clipboard";
    return false;
  }
  static constexpr zwlr_data_control_source_v1_listener listener = {
      .send = &DataControlClipboard::on_send,
      .cancelled = &DataControlClipboard::on_cancelled,
  };
  if (source_) zwlr_data_control_source_v1_destroy(source_);
  source_ = zwlr_data_control_manager_v1_create_data_source(display_->data_control());
  zwlr_data_control_source_v1_add_listener(source_, &listener, this);
  if (text)
    for (const char* m : kTextMimes) zwlr_data_control_source_v1_offer(source_, m);
  else
    zwlr_data_control_source_v1_offer(source_, input::kMimePng.data());
  zwlr_data_control_source_v1_offer(source_, kOwnOfferMime);
  zwlr_data_control_device_v1_set_selection(device_, source_);
  offered_ = std::make_shared<const input::ClipboardContent>(std::move(content));
  if (!display_->dispatch_ready()) {
    error = "the Wayland connection was lost: " + display_->error();
    return false;
  }
  return true;
}

void DataControlClipboard::on_send(void* data, zwlr_data_control_source_v1* source, const char*, int32_t fd) {
  auto* self = static_cast<DataControlClipboard*>(data);
  if (source != self->source_ || !self->offered_ || self->sends_.size() >= kMaxSends) {
    ::close(fd);  // the program reads nothing
    return;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  auto send = std::make_shared<Send>(self->io_, fd);
  send->content = self->offered_;
  self->sends_.push_back(send);
  self->continue_send(send);
}

void DataControlClipboard::continue_send(const std::shared_ptr<Send>& send) {
  const auto finish = [this, send] { std::erase(sends_, send); };
  const std::string& bytes = send->content->data;
  while (send->at < bytes.size()) {
    const ssize_t n =
        write_without_sigpipe(send->pipe.native_handle(), bytes.data() + send->at, bytes.size() - send->at);
    if (n > 0) {
      send->at += size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      send->pipe.async_wait(asio::posix::stream_descriptor::wait_write,
                            [this, send, alive = alive_](const boost::system::error_code& ec) {
                              if (!*alive) return;
                              if (ec) std::erase(sends_, send);
                              else continue_send(send);
                            });
      return;
    }
    break;  // the program stopped reading
  }
  finish();
}

void DataControlClipboard::on_cancelled(void* data, zwlr_data_control_source_v1* source) {
  auto* self = static_cast<DataControlClipboard*>(data);
  zwlr_data_control_source_v1_destroy(source);
  if (source == self->source_) {
    self->source_ = nullptr;
    self->offered_.reset();
  }
}

}  // namespace voxl::platform::wayland
