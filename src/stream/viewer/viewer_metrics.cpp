#include "stream/viewer/viewer_metrics.h"

#include <map>
#include <string>
#include <vector>

namespace voxl::stream {

// Seconds, 0.25 ms to about 4 s doubling: a LAN write to one behind a
// congested link.
ViewerMetrics::ViewerMetrics() : send_([] {
  std::vector<double> b;
  for (double s = 0.00025; s < 5; s *= 2) b.push_back(s);
  return b;
}()) {}

void ViewerMetrics::add(uint64_t viewer, Source source) {
  if (live_.insert_or_assign(viewer, std::move(source)).second) ++connected_;
}

void ViewerMetrics::remove(uint64_t viewer) {
  const auto it = live_.find(viewer);
  if (it == live_.end()) return;
  const ViewerFigures f = it->second();
  gone_.frames_sent += f.frames_sent;
  gone_.bytes_sent += f.bytes_sent;
  gone_.key_frames_sent += f.key_frames_sent;
  gone_.frames_dropped += f.frames_dropped;
  live_.erase(it);
}

void ViewerMetrics::write(MetricsText& out) const {
  using T = MetricsText::Type;
  std::vector<std::pair<std::string, ViewerFigures>> now;
  now.reserve(live_.size());
  ViewerFigures total = gone_;
  size_t view_only = 0;
  std::map<std::string, size_t> by_user;
  for (const auto& [id, source] : live_) {
    const ViewerFigures f = source();
    total.frames_sent += f.frames_sent;
    total.bytes_sent += f.bytes_sent;
    total.key_frames_sent += f.key_frames_sent;
    total.frames_dropped += f.frames_dropped;
    if (f.view_only) ++view_only;
    ++by_user[f.user];
    now.emplace_back(std::to_string(id), f);
  }
  out.family("voxl_viewers", T::kGauge, "Viewers connected now, by role");
  out.sample("voxl_viewers", {{"role", "full"}}, double(live_.size() - view_only));
  out.sample("voxl_viewers", {{"role", "view_only"}}, double(view_only));
  out.family("voxl_viewers_by_user", T::kGauge,
             "Viewers connected now, by the user they signed in as (\"\" for the token and the built-in user)");
  for (const auto& [user, n] : by_user) out.sample("voxl_viewers_by_user", {{"user", user}}, double(n));
  out.family("voxl_viewers_connected_total", T::kCounter, "Viewers that connected since start");
  out.sample("voxl_viewers_connected_total", double(connected_));
  out.family("voxl_video_frames_sent_total", T::kCounter, "Video frames sent to viewers, all viewers");
  out.sample("voxl_video_frames_sent_total", double(total.frames_sent));
  out.family("voxl_video_bytes_sent_total", T::kCounter, "Video bytes sent to viewers, all viewers");
  out.sample("voxl_video_bytes_sent_total", double(total.bytes_sent));
  out.family("voxl_video_key_frames_sent_total", T::kCounter, "Key frames sent to viewers, all viewers");
  out.sample("voxl_video_key_frames_sent_total", double(total.key_frames_sent));
  out.family("voxl_send_seconds", T::kHistogram,
             "Time from handing a video frame to a viewer's socket to the write completing (the send stage)");
  out.histogram("voxl_send_seconds", {}, send_);
  out.family("voxl_video_frames_dropped_total", T::kCounter,
             "Video frames dropped unsent because a viewer fell behind (it then waits for a key frame)");
  out.sample("voxl_video_frames_dropped_total", double(total.frames_dropped));

  struct Gauge {
    const char* name;
    const char* help;
    double (*get)(const ViewerFigures&);
  };
  const Gauge gauges[] = {
      {"voxl_viewer_rtt_seconds", "A viewer's smoothed round trip (0 until measured)",
       [](const ViewerFigures& f) { return f.srtt_ms / 1000; }},
      {"voxl_viewer_min_rtt_seconds", "A viewer's lowest recent round trip",
       [](const ViewerFigures& f) { return f.min_rtt_ms / 1000; }},
      {"voxl_viewer_link_bits_per_second", "What a viewer's link was seen to carry",
       [](const ViewerFigures& f) { return f.delivery_kbps * 1000; }},
      {"voxl_viewer_target_bits_per_second", "The bitrate a viewer asks of the encoder (0: no say)",
       [](const ViewerFigures& f) { return double(f.target_kbps) * 1000; }},
      {"voxl_viewer_frames_sent", "Video frames sent to a viewer since it connected",
       [](const ViewerFigures& f) { return double(f.frames_sent); }},
      {"voxl_viewer_frames_dropped", "Video frames dropped for a viewer since it connected",
       [](const ViewerFigures& f) { return double(f.frames_dropped); }},
  };
  for (const Gauge& g : gauges) {
    out.family(g.name, T::kGauge, g.help);
    for (const auto& [id, f] : now) out.sample(g.name, {{"viewer", id}}, g.get(f));
  }
}

}  // namespace voxl::stream
