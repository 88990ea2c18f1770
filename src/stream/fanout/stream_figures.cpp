#include "stream/fanout/stream_figures.h"

#include <nlohmann/json.hpp>

namespace voxl::stream {

namespace {

using json = nlohmann::json;

json rung_json(const RungFigures& r) {
  return {{"fps", r.fps},
          {"kbps", r.kbps},
          {"key_frames", r.key_frames},
          {"frames_total", r.frames_total},
          {"width", r.size.width},
          {"height", r.size.height},
          {"codec", r.codec},
          {"frame_rate", r.frame_rate},
          {"rate_factor", r.rate_factor},
          {"motion", r.smooth ? "smooth" : "sharp"},
          {"encoder_threads", r.encoder_threads},
          {"stripes", r.stripes},
          {"stage_ms",
           {{"capture", r.stage_ms.capture},
            {"convert", r.stage_ms.convert},
            {"encode", r.stage_ms.encode},
            {"to_loop", r.stage_ms.to_loop}}}};
}

// A ladder rung lists the figures that differ between rungs.
json ladder_rung_json(const LadderRungFigures& r) {
  return {{"rung", r.rung},
          {"consumers", r.consumers},
          {"target_kbps", r.target_kbps},
          {"fps", r.figures.fps},
          {"kbps", r.figures.kbps},
          {"frame_rate", r.figures.frame_rate},
          {"rate_factor", r.figures.rate_factor},
          {"width", r.figures.size.width},
          {"height", r.figures.size.height},
          {"encode_ms", r.figures.stage_ms.encode}};
}

}  // namespace

json to_json(const StreamFigures& f) {
  json j = rung_json(f.stream);
  if (f.ladder) {
    json rungs = json::array();
    for (const LadderRungFigures& r : f.ladder->rungs) rungs.push_back(ladder_rung_json(r));
    j["ladder"] = {{"max_encodes", f.ladder->max_encodes},
                   {"affordable", f.ladder->affordable},
                   {"work_pct", f.ladder->work_pct},
                   {"moves", f.ladder->moves},
                   {"rule", f.ladder->rule},
                   {"rungs", std::move(rungs)}};
  }
  return j;
}

}  // namespace voxl::stream
