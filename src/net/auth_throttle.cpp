#include "net/auth_throttle.h"

#include <boost/asio/ip/address.hpp>

#include <algorithm>

namespace voxl::net {

std::string AuthThrottle::key(std::string_view address) {
  const std::string a(address.substr(0, std::min<size_t>(address.size(), 64)));
  namespace ip = boost::asio::ip;
  if (a.find('%') != std::string::npos) return a;  // a scope id: not a plain address
  boost::system::error_code ec;
  const ip::address_v6 v6 = ip::make_address_v6(a, ec);
  if (ec) return a;
  if (v6.is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, v6).to_string();
  ip::address_v6::bytes_type bytes = v6.to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return ip::address_v6(bytes).to_string() + "/64";
}

AuthThrottle::Clock::duration AuthThrottle::blocked_for(std::string_view address, Clock::time_point now) const {
  const auto it = table_.find(key(address));
  if (it == table_.end() || it->second.blocked_until <= now) return Clock::duration::zero();
  return it->second.blocked_until - now;
}

void AuthThrottle::evict_oldest() {
  const auto oldest = std::min_element(table_.begin(), table_.end(), [](const auto& a, const auto& b) {
    return a.second.last_seen < b.second.last_seen;
  });
  if (oldest != table_.end()) table_.erase(oldest);
}

AuthThrottle::Failure AuthThrottle::record_failure(std::string_view address, Clock::time_point now) {
  const std::string k = key(address);
  auto it = table_.find(k);
  if (it == table_.end()) {
    while (!table_.empty() && table_.size() >= std::max<size_t>(limits_.max_addresses, 1)) evict_oldest();
    it = table_.emplace(k, Entry{}).first;
    it->second.window_start = now;
  }
  Entry& e = it->second;
  // A long quiet spell forgets the address's past; otherwise, until it
  // has been blocked once, each window starts a new count. A blocked
  // address stays blocked again on every further failure.
  if (now - e.last_seen >= limits_.max_block * 2) {
    e.blocks = 0;
    e.failures = 0;
    e.window_start = now;
  } else if (e.blocks == 0 && now - e.window_start >= limits_.window) {
    e.failures = 0;
    e.window_start = now;
  }
  e.last_seen = now;
  ++e.failures;
  Failure f;
  f.failures = e.failures;
  if (e.failures >= limits_.free_failures) {
    auto block = limits_.first_block;
    for (int i = 0; i < e.blocks && block < limits_.max_block; ++i) block *= 2;
    block = std::min(block, limits_.max_block);
    e.blocked_until = std::max(e.blocked_until, now + block);
    ++e.blocks;
    f.blocked = e.blocked_until - now;
  }
  f.close_connection = e.failures >= limits_.close_after;
  ++e.unlogged;
  if (!e.logged || now - e.last_log >= limits_.log_interval) {
    f.log = true;
    f.unlogged = e.unlogged;
    e.unlogged = 0;
    e.last_log = now;
    e.logged = true;
  }
  return f;
}

void AuthThrottle::record_success(std::string_view address) { table_.erase(key(address)); }

}  // namespace voxl::net
