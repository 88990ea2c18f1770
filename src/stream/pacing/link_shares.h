// The viewers and file transfers of one server by client address, so that
// transfers to an address where someone watches the stream take only what
// the picture leaves of that link (TransferShare). A viewer's acks update
// its address's share; every transfer at that address is told its part
// (the share split evenly) whenever it moves by more than kChange, and
// when transfers come and go. An address with no viewer has no limit.
//
// Bounded by the server's connection limits: every entry is a live viewer
// or HTTP session, removed by that session when it ends.
//
// Threads: loop thread only. Owned by the server's SessionContext; the
// sessions that register outlive nothing here (they remove themselves).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "stream/pacing/transfer_share.h"

namespace voxl::stream {

class LinkShares {
 public:
  using Time = TransferShare::Time;
  // A transfer's part in bytes per second; none: no limit.
  using Apply = std::function<void(std::optional<uint64_t> bytes_per_second)>;

  static constexpr double kChange = 0.05;

  uint64_t add_viewer(const std::string& address, Time now);
  void remove_viewer(uint64_t id);
  void on_viewer_sample(uint64_t id, const LinkSample& s, Time now);

  // `apply` is called at once with the transfer's current part, then on
  // every change, until remove_transfer().
  uint64_t add_transfer(const std::string& address, Apply apply, Time now);
  void remove_transfer(uint64_t id);
  void on_transfer_progress(uint64_t id, Time now);

  // Transfers running now, and how many of them have a limit.
  size_t transfers() const { return transfers_.size(); }
  size_t paced_transfers() const;
  // The share at `address` in kbit/s (none: no limit).
  std::optional<double> share_kbps(const std::string& address) const;

 private:
  struct Address {
    explicit Address(Time now) : share(now) {}
    size_t viewers = 0;
    size_t transfers = 0;
    TransferShare share;
    std::optional<double> told_kbps;  // the share last handed out
  };
  struct Transfer {
    std::string address;
    Apply apply;
    std::optional<uint64_t> part;  // what it was last told
  };

  Address& at(const std::string& address, Time now);
  // Tells each transfer at `address` its part when the share moved enough
  // (or `force`).
  void hand_out(const std::string& address, bool force);
  void drop_if_unused(const std::string& address);

  std::map<std::string, Address> addresses_;
  std::map<uint64_t, std::string> viewers_;  // id -> address
  std::map<uint64_t, Transfer> transfers_;
  uint64_t next_id_ = 0;
};

}  // namespace voxl::stream
