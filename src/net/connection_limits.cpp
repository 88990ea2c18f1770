#include "net/connection_limits.h"

#include <utility>

namespace voxl::net {

struct ConnectionToken::Counts {
  size_t total = 0;
  std::map<std::string, size_t> by_address;  // only addresses with open connections
};

ConnectionToken::ConnectionToken(std::shared_ptr<Counts> counts, std::string address)
    : counts_(std::move(counts)), address_(std::move(address)) {}

ConnectionToken::~ConnectionToken() { release(); }

ConnectionToken::ConnectionToken(ConnectionToken&& o) noexcept
    : counts_(std::move(o.counts_)), address_(std::move(o.address_)) {}

ConnectionToken& ConnectionToken::operator=(ConnectionToken&& o) noexcept {
  if (this != &o) {
    release();
    counts_ = std::move(o.counts_);
    address_ = std::move(o.address_);
  }
  return *this;
}

void ConnectionToken::release() {
  if (!counts_) return;
  --counts_->total;
  const auto it = counts_->by_address.find(address_);
  if (it != counts_->by_address.end() && --it->second == 0) counts_->by_address.erase(it);
  counts_.reset();
}

ConnectionLimiter::ConnectionLimiter(ConnectionCaps caps)
    : caps_(caps), counts_(std::make_shared<ConnectionToken::Counts>()) {}

ConnectionToken ConnectionLimiter::admit(const std::string& address, Refusal& why) {
  why = Refusal::kNone;
  if (counts_->total >= caps_.total) {
    why = Refusal::kTotal;
    return {};
  }
  if (open_from(address) >= caps_.per_address) {
    why = Refusal::kPerAddress;
    return {};
  }
  ++counts_->total;
  ++counts_->by_address[address];
  return ConnectionToken(counts_, address);
}

size_t ConnectionLimiter::open() const { return counts_->total; }

size_t ConnectionLimiter::open_from(const std::string& address) const {
  const auto it = counts_->by_address.find(address);
  return it == counts_->by_address.end() ? 0 : it->second;
}

}  // namespace voxl::net
