#include "packet_relay.h"

#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

namespace voxl::bench {
namespace {

constexpr size_t kMaxPacket = 65536;
constexpr size_t kMaxHeldBytes = 64 << 20;
constexpr int kReadsPerTurn = 256;  // then the other side and the clock get a turn

std::string counts_json(const PathModel::Counts& c, uint64_t overflow, uint64_t write_errors) {
  return "{\"offered\":" + std::to_string(c.offered) + ",\"delivered\":" + std::to_string(c.delivered) +
         ",\"lost\":" + std::to_string(c.lost) + ",\"queue_full\":" + std::to_string(c.queue_full) +
         ",\"bytes_delivered\":" + std::to_string(c.bytes_delivered) + ",\"overflow\":" + std::to_string(overflow) +
         ",\"write_errors\":" + std::to_string(write_errors) + "}";
}

}  // namespace

PacketRelay::PacketRelay(int fd_a, int fd_b, PathSettings down, PathSettings up, Clock::time_point start)
    : down_{fd_a, fd_b, PathModel(std::move(down), since_epoch(start)), {}, 0, 0, 0},
      up_{fd_b, fd_a, PathModel(std::move(up), since_epoch(start)), {}, 0, 0, 0},
      read_buffer_(kMaxPacket) {}

PathModel::Time PacketRelay::since_epoch(Clock::time_point t) {
  return std::chrono::duration_cast<PathModel::Time>(t.time_since_epoch());
}

void PacketRelay::take(Direction& d, PathModel::Time now) {
  std::vector<unsigned char>& buf = read_buffer_;
  for (int i = 0; i < kReadsPerTurn; ++i) {
    const ssize_t n = ::read(d.from, buf.data(), buf.size());
    if (n <= 0) return;  // EAGAIN: nothing more for now
    const auto v = d.model.offer(size_t(n), now);
    if (v.fate != PathModel::Fate::kDelivered) continue;
    if (d.held_bytes + size_t(n) > kMaxHeldBytes) {
      ++d.overflow;
      continue;
    }
    d.held_bytes += size_t(n);
    d.held.push({v.deliver_at, order_++, std::vector<unsigned char>(buf.begin(), buf.begin() + n)});
  }
}

void PacketRelay::deliver(Direction& d, PathModel::Time now) {
  while (!d.held.empty() && d.held.top().at <= now) {
    const Held& h = d.held.top();
    // A full TUN queue on the far side loses the packet, as a NIC would.
    if (::write(d.to, h.packet.data(), h.packet.size()) < 0) ++d.write_errors;
    d.held_bytes -= h.packet.size();
    d.held.pop();
  }
}

void PacketRelay::run(int signal_fd, Clock::time_point until) {
  for (;;) {
    const auto now = Clock::now();
    const PathModel::Time t = since_epoch(now);
    deliver(down_, t);
    deliver(up_, t);
    if (now >= until) return;
    PathModel::Time next = since_epoch(until);
    for (const Direction* d : {&down_, &up_})
      if (!d->held.empty()) next = std::min(next, d->held.top().at);
    const auto wait = std::max(PathModel::Time(0), next - t);
    timespec ts{time_t(wait.count() / 1000000000), long(wait.count() % 1000000000)};
    pollfd fds[3] = {{down_.from, POLLIN, 0}, {up_.from, POLLIN, 0}, {signal_fd, POLLIN, 0}};
    const int n = ::ppoll(fds, 3, &ts, nullptr);
    if (n < 0 && errno != EINTR) return;
    if (n <= 0) continue;
    if (fds[2].revents & POLLIN) return;
    const PathModel::Time arrived = since_epoch(Clock::now());
    if (fds[0].revents & POLLIN) take(down_, arrived);
    if (fds[1].revents & POLLIN) take(up_, arrived);
  }
}

std::string PacketRelay::stats_json() const {
  return "{\"down\":" + counts_json(down_.model.counts(), down_.overflow, down_.write_errors) +
         ",\"up\":" + counts_json(up_.model.counts(), up_.overflow, up_.write_errors) + "}";
}

}  // namespace voxl::bench
