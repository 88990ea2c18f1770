// One HTTP connection's share of its link while it streams a body (a
// download, a folder's zip) to an address where a viewer watches: it takes
// what the picture leaves (stream::LinkShares), and the kernel paces the
// socket at that rate. No Beast: the session passes its socket's handle.
//
// Threads: the loop thread, owned by one HTTP session.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "net/session_context.h"

namespace voxl::net {

class TransferPacing {
 public:
  // The socket's native handle, or nullopt once it is closed.
  using Socket = std::optional<std::intptr_t>;
  // LinkShares moved this transfer's rate (nullopt: unpaced); the session
  // answers with apply().
  using OnRate = std::function<void(std::optional<uint64_t> bytes_per_second)>;

  explicit TransferPacing(SessionContext& ctx) : ctx_(ctx) {}
  ~TransferPacing();
  TransferPacing(const TransferPacing&) = delete;
  TransferPacing& operator=(const TransferPacing&) = delete;

  // Joins LinkShares for `remote` (nothing when --pace-transfers is off,
  // the address is unknown, or it has joined already).
  void begin(const std::string& remote, OnRate on_rate);
  void apply(Socket socket, std::optional<uint64_t> bytes_per_second);
  // Leaves LinkShares (the others' parts grow) and lifts the socket's pace.
  void end(Socket socket) noexcept;
  // Says the transfer is moving (LinkShares judges stalled ones).
  void progress();

 private:
  SessionContext& ctx_;
  uint64_t transfer_ = 0;  // in ctx_.link_shares while joined
  bool paced_ = false;     // the socket has a pacing ceiling set
  bool unsupported_logged_ = false;
};

}  // namespace voxl::net
