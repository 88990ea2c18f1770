#include "stream/pacing/link_shares.h"

#include <cmath>

namespace voxl::stream {

LinkShares::Address& LinkShares::at(const std::string& address, Time now) {
  return addresses_.try_emplace(address, now).first->second;
}

uint64_t LinkShares::add_viewer(const std::string& address, Time now) {
  const uint64_t id = ++next_id_;
  viewers_.emplace(id, address);
  ++at(address, now).viewers;
  hand_out(address, true);
  return id;
}

void LinkShares::remove_viewer(uint64_t id) {
  const auto it = viewers_.find(id);
  if (it == viewers_.end()) return;
  const std::string address = std::move(it->second);
  viewers_.erase(it);
  --addresses_.at(address).viewers;
  hand_out(address, true);
  drop_if_unused(address);
}

void LinkShares::on_viewer_sample(uint64_t id, const LinkSample& s, Time now) {
  const auto it = viewers_.find(id);
  if (it == viewers_.end()) return;
  addresses_.at(it->second).share.on_link(s, now);
  hand_out(it->second, false);
}

uint64_t LinkShares::add_transfer(const std::string& address, Apply apply, Time now) {
  const uint64_t id = ++next_id_;
  transfers_.emplace(id, Transfer{address, std::move(apply), std::nullopt});
  ++at(address, now).transfers;
  hand_out(address, true);
  return id;
}

void LinkShares::remove_transfer(uint64_t id) {
  const auto it = transfers_.find(id);
  if (it == transfers_.end()) return;
  const std::string address = std::move(it->second.address);
  transfers_.erase(it);
  --addresses_.at(address).transfers;
  hand_out(address, true);  // the others' parts grow
  drop_if_unused(address);
}

void LinkShares::on_transfer_progress(uint64_t id, Time now) {
  const auto it = transfers_.find(id);
  if (it == transfers_.end()) return;
  addresses_.at(it->second.address).share.on_progress(now);
  hand_out(it->second.address, false);
}

size_t LinkShares::paced_transfers() const {
  size_t n = 0;
  for (const auto& [id, t] : transfers_) n += t.part.has_value();
  return n;
}

std::optional<double> LinkShares::share_kbps(const std::string& address) const {
  const auto it = addresses_.find(address);
  if (it == addresses_.end() || it->second.viewers == 0) return std::nullopt;
  return it->second.share.kbps();
}

void LinkShares::hand_out(const std::string& address, bool force) {
  const auto it = addresses_.find(address);
  if (it == addresses_.end()) return;
  Address& a = it->second;
  const std::optional<double> kbps = share_kbps(address);
  if (!force && kbps.has_value() == a.told_kbps.has_value() &&
      (!kbps || std::abs(*kbps - *a.told_kbps) <= kChange * *a.told_kbps))
    return;
  a.told_kbps = kbps;
  if (a.transfers == 0) return;
  std::optional<uint64_t> part;
  if (kbps) part = uint64_t(*kbps * 1000 / 8 / double(a.transfers));
  // Each transfer's Apply may not add or remove transfers (it sets a socket
  // option); the map is not changed while it runs.
  for (auto& [id, t] : transfers_) {
    if (t.address != address) continue;
    t.part = part;
    t.apply(part);
  }
}

void LinkShares::drop_if_unused(const std::string& address) {
  const auto it = addresses_.find(address);
  if (it != addresses_.end() && it->second.viewers == 0 && it->second.transfers == 0) addresses_.erase(it);
}

}  // namespace voxl::stream
