#include "net/transfer_pacing.h"

#include <chrono>
#include <utility>

#include "platform/socket_pacing.h"

namespace voxl::net {

TransferPacing::~TransferPacing() {
  if (transfer_) ctx_.link_shares.remove_transfer(transfer_);
}

void TransferPacing::begin(const std::string& remote, OnRate on_rate) {
  if (!ctx_.settings.pace_transfers || remote.empty() || transfer_) return;
  transfer_ = ctx_.link_shares.add_transfer(remote, std::move(on_rate), std::chrono::steady_clock::now());
}

void TransferPacing::apply(Socket socket, std::optional<uint64_t> bytes_per_second) {
  if (!socket) return;
  // The limit is kept for what this connection sends next only while paced.
  if (!platform::set_send_pacing(*socket, bytes_per_second) && bytes_per_second && !unsupported_logged_) {
    unsupported_logged_ = true;
    ctx_.log->debug("this system cannot pace a socket: the download is not held back for the picture");
  }
  paced_ = bytes_per_second.has_value();
}

void TransferPacing::end(Socket socket) noexcept {
  if (!transfer_) return;
  try {
    ctx_.link_shares.remove_transfer(std::exchange(transfer_, 0));
  } catch (...) {
  }
  if (paced_) {
    if (socket) platform::set_send_pacing(*socket, std::nullopt);
    paced_ = false;
  }
}

void TransferPacing::progress() {
  if (transfer_) ctx_.link_shares.on_transfer_progress(transfer_, std::chrono::steady_clock::now());
}

}  // namespace voxl::net
