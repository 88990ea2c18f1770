// One part of the desktop that reports on the loop (a cursor source, a
// clipboard), made again when it says it lost the desktop: the dead one is
// destroyed once its own handler has returned, then new ones are tried with
// a back-off (base/reconnector.h: kFirstRetry doubling to kLongestRetry, a
// repeated reason logged once) until one can be made; `on_made` then sets it
// up as the first one was. While the desktop is away get() is null. A part
// that never loses the desktop costs nothing.
//
// Threads: the loop thread only; construct and destroy there. Owns the part.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "base/logging.h"
#include "base/reconnector.h"

namespace voxl::input {

template <class Part>
class RebuiltPart {
 public:
  // Makes the part on the desktop; throws std::runtime_error when it cannot.
  using Factory = std::function<std::unique_ptr<Part>()>;
  static constexpr auto kFirstRetry = std::chrono::milliseconds(250);
  static constexpr auto kLongestRetry = std::chrono::seconds(5);

  // `what` names the part in the log ("cursor shapes").
  RebuiltPart(boost::asio::io_context& io, std::unique_ptr<Part> first, Factory make, std::string what, Logger log,
              std::function<void(Part&)> on_made)
      : io_(io), make_(std::move(make)), what_(std::move(what)), log_(std::move(log)), on_made_(std::move(on_made)),
        retry_(io) {
    if (first) adopt(std::move(first));
  }
  ~RebuiltPart() { *alive_ = false; }
  RebuiltPart(const RebuiltPart&) = delete;
  RebuiltPart& operator=(const RebuiltPart&) = delete;

  Part* get() const { return current_.get(); }

 private:
  void adopt(std::unique_ptr<Part> part) {
    current_ = std::move(part);
    current_->set_lost_handler([this, alive = alive_] {
      boost::asio::post(io_, [this, alive] {
        if (*alive) lost();
      });
    });
    on_made_(*current_);
  }

  void lost() {
    if (!current_) return;
    log_->warn("{}: lost the desktop; making them again once it is back", what_);
    // Its handler may still be on the stack: destroyed from the loop.
    boost::asio::post(io_, [dead = std::move(current_)] {});
    reconnector_.restart();
    retry_later();
  }

  void retry_later() {
    retry_.expires_after(reconnector_.next_wait());
    retry_.async_wait([this, alive = alive_](boost::system::error_code ec) {
      if (!ec && *alive) try_again();
    });
  }

  void try_again() {
    // Setting the new part up is part of the attempt: if it throws, the
    // attempt failed and another follows after the next wait.
    const auto made = reconnector_.try_once(
        [this]() -> std::optional<Part*> {
          auto fresh = make_();
          if (!fresh) return std::nullopt;
          log_->info("{}: back", what_);
          adopt(std::move(fresh));
          return current_.get();
        },
        [this](const std::string& why) { log_->warn("{}: still cannot reach the desktop: {}", what_, why); });
    if (!made) retry_later();
  }

  boost::asio::io_context& io_;
  Factory make_;
  std::string what_;
  Logger log_;
  std::function<void(Part&)> on_made_;
  std::unique_ptr<Part> current_;
  boost::asio::steady_timer retry_;
  Reconnector reconnector_{kFirstRetry, kLongestRetry};
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace voxl::input
