#include "endpoints/agent_endpoints.h"

#include <boost/asio/post.hpp>

#include <memory>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "endpoints/input_actions.h"

namespace voxl::endpoints {

namespace asio = boost::asio;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::ReplyFn;

namespace {

std::optional<net::Query> query_of(const EndpointRequest& req, const std::vector<std::string>& known, ReplyFn& reply) {
  return endpoint_query(req, known, reply);
}

EndpointReply mp4_reply(RecordOutcome o) {
  if (o.status != 200) return net::json_error(o.status, "", o.error);
  EndpointReply r;
  r.content_type = "video/mp4";
  r.file = std::move(o.file);
  r.headers = {{"X-Voxl-Frames", std::to_string(o.frames)},
               {"X-Voxl-Duration-Ms", std::to_string(int64_t(o.seconds * 1000 + 0.5))},
               {"X-Voxl-Ended", o.ended}};
  // /record?last=: where the clip begins, and how far back the buffer
  // reached (under last's milliseconds: the clip holds less than asked).
  if (o.before_ms >= 0) r.headers.push_back({"X-Voxl-Before-Ms", std::to_string(o.before_ms)});
  if (o.buffered_ms >= 0) r.headers.push_back({"X-Voxl-Buffered-Ms", std::to_string(o.buffered_ms)});
  return r;
}

CancelFn screenshot(const AgentServices& s, const EndpointRequest& req, ReplyFn reply) {
  auto q = query_of(req, {"region", "scale", "max_width", "max_height", "cursor"}, reply);
  if (!q) return nullptr;
  net::ParamError error;
  ShotRequest request;
  bool cursor = false;
  if (!q->rect("region", request.region, error) || !parse_scale(*q, request.scale, error) ||
      !q->flag("cursor", cursor, error))
    return reply(bad_parameter(error)), nullptr;
  // The pointer as the desktop shows it now, drawn where its hot spot is.
  if (cursor && s.interaction && s.interaction->cursor()) {
    input::CursorImagePtr image = s.interaction->cursor()->current();
    const std::optional<Point> at = pointer_in_picture(s, picture_now(s));
    if (image && !image->hidden() && at) {
      request.cursor = std::move(image);
      request.pointer = *at;
    }
  }
  // The seq first: whatever is drawn after it gets a later one, so
  // /wait?since= never misses a change the picture may not show.
  const uint64_t seq = s.changes.current_seq();
  auto cancelled = std::make_shared<bool>(false);
  auto& io = s.io;
  input::Interaction* interaction = s.interaction;
  // The PNG's corner in the picture (a region's).
  const Point corner = request.region ? Point{request.region->x, request.region->y} : Point{0, 0};
  const bool queued = s.screenshots.submit(std::move(request), [&io, reply, seq, cancelled, interaction,
                                                                corner](Screenshot shot) {
    asio::post(io, [reply, seq, cancelled, interaction, corner, shot = std::move(shot)]() mutable {
      // The agent clicks next on what it saw: where the captured area is
      // now, also when no viewer's frames have said so since it moved.
      if (shot.status == 200 && interaction) interaction->set_picture({shot.origin, shot.area}, shot.captured_at);
      if (*cancelled) return;
      if (shot.status != 200) return reply(net::json_error(shot.status, shot.parameter,
                                                           (shot.parameter.empty() ? "" : shot.parameter + " ") + shot.error));
      EndpointReply r;
      r.content_type = "image/png";
      r.body = std::move(shot.png);
      r.headers = {{kSeqHeader, std::to_string(seq)},
                   {"X-Voxl-Timing", "grab=" + std::to_string(shot.grab_us) + "us, png=" +
                                         std::to_string(shot.encode_us) + "us"}};
      // The space the PNG's pixels are in: what it shows at full size, the
      // scale, and where its corner is on the desktop; the agent's
      // coordinates map back through the same rule (/computer, /input).
      r.headers.push_back({"X-Voxl-Picture", std::to_string(shot.scaling.full().width) + "x" +
                                                 std::to_string(shot.scaling.full().height)});
      r.headers.push_back({"X-Voxl-Scale", json_text(shot.scaling.factor())});
      r.headers.push_back({"X-Voxl-Picture-Origin", std::to_string(shot.origin.x + corner.x) + "," +
                                                        std::to_string(shot.origin.y + corner.y)});
      reply(std::move(r));
    });
  });
  if (!queued) {
    reply(net::json_error(503, "", "too many screenshots are being taken; try again"));
    return nullptr;
  }
  return [cancelled] { *cancelled = true; };
}

CancelFn wait(const AgentServices& s, const EndpointRequest& req, ReplyFn reply) {
  auto q = query_of(req, {"idle", "change", "region", "timeout", "since"}, reply);
  if (!q) return nullptr;
  const uint64_t seq = s.changes.current_seq();
  net::ParamError error;
  auto spec = parse_wait(*q, seq, error, s.max_wait);
  if (!spec) return reply(bad_parameter(error)), nullptr;
  // Regions are in the coordinates of what the agent sees (the stream and
  // /screenshot, which show the captured area); the change monitor watches
  // the whole screen, so without a region a wait watches the captured area:
  // what is drawn beside it is not in the picture.
  const input::PictureMapping picture = picture_now(s);
  if (spec->region)
    spec->region = picture.to_desktop(*spec->region);
  else if (!s.whole_screen && picture.known())
    spec->region = picture.desktop_area();
  const uint64_t id = s.changes.start_wait(*spec, [reply](const WaitOutcome& o) {
    EndpointReply r;
    r.body = o.json() + "\n";
    r.headers = {{kSeqHeader, std::to_string(o.seq)}};
    reply(std::move(r));
  });
  if (id == 0) {
    reply(net::json_error(503, "", "too many waiters at once"));
    return nullptr;
  }
  return [&changes = s.changes, id] { changes.cancel(id); };
}

// A signed-in user without the users file's "record" right records nothing.
std::string no_record_right(const EndpointRequest& req) {
  return (req.user.empty() ? std::string("this sign-in") : req.user) +
         " may not record (the users file grants no 'record')";
}

CancelFn record(const AgentServices& s, const EndpointRequest& req, ReplyFn reply) {
  auto q = query_of(req, {"seconds", "last"}, reply);
  if (!q) return nullptr;
  // It takes a recording slot and disk like /record/start, and a page on
  // another site can load it from the user's browser (a video element).
  if (req.foreign_origin)
    return reply(net::json_error(403, "", "recording from a foreign origin refused; allow it with --allowed-origins")),
           nullptr;
  if (!req.rights.has(net::Right::kRecord)) return reply(net::json_error(403, "", no_record_right(req))), nullptr;
  int64_t seconds = 0;
  net::ParamError error;
  const int64_t max = s.recordings.max_length().count();
  RecordRefusal why;
  uint64_t id = 0;
  if (q->has("last")) {
    // /record?last=N[&seconds=M]: the stream kept in memory from N seconds
    // before the request (from the key frame at or before then), and M
    // seconds after it, as one MP4; with no `seconds` it comes back at once.
    const int64_t kept = s.recordings.buffer_length().count();
    if (kept == 0)
      return reply(net::json_error(409, "last",
                                   "no stream is kept for recordings of the past: start the server with "
                                   "--record-buffer-seconds N")),
             nullptr;
    int64_t last = 0;
    if (!q->integer("last", 1, kept, last, error)) {
      error.message += " (the most is --record-buffer-seconds)";
      return reply(bad_parameter(error)), nullptr;
    }
    if (!q->integer("seconds", 1, max, seconds, error)) {
      error.message += " (the most is --max-record-seconds)";
      return reply(bad_parameter(error)), nullptr;
    }
    id = s.recordings.record_last(std::chrono::seconds(last), std::chrono::seconds(seconds),
                                  [reply](RecordOutcome o) { reply(mp4_reply(std::move(o))); }, why);
    if (id == 0) return reply(net::json_error(why.status, "", why.error)), nullptr;
    return [&rec = s.recordings, id] { rec.cancel(id); };
  }
  if (!q->has("seconds"))
    return reply(net::json_error(400, "seconds", "seconds is required: /record?seconds=N (or last=N for the past)")),
           nullptr;
  if (!q->integer("seconds", 1, max, seconds, error)) {
    error.message += " (the most is --max-record-seconds)";
    return reply(bad_parameter(error)), nullptr;
  }
  id = s.recordings.record_for(std::chrono::seconds(seconds),
                               [reply](RecordOutcome o) { reply(mp4_reply(std::move(o))); }, why);
  if (id == 0) return reply(net::json_error(why.status, "", why.error)), nullptr;
  return [&rec = s.recordings, id] { rec.cancel(id); };
}

// Watching includes /record?seconds= (a bounded clip that ends when its
// client leaves; refused for foreign origins all the same, above), but
// starting and stopping recordings changes what the server holds for
// everyone: its recording slots, its disk, and any client's recording,
// whose id is a small counter. View-only is read-only. (A page of another
// site cannot POST here: the server refuses that before any handler.)
constexpr const char* kRecordControl = "start or stop recordings";

CancelFn record_start(const AgentServices& s, const EndpointRequest& req, ReplyFn reply) {
  if (!query_of(req, {}, reply)) return nullptr;
  if (req.view_only) return reply(net::json_error(403, "", req.cannot(kRecordControl))), nullptr;
  if (!req.rights.has(net::Right::kRecord)) return reply(net::json_error(403, "", no_record_right(req))), nullptr;
  RecordRefusal why;
  const uint64_t id = s.recordings.start(why);
  if (id == 0) return reply(net::json_error(why.status, "", why.error)), nullptr;
  EndpointReply r;
  r.body = json_text(nlohmann::json{{"id", id}, {"max_seconds", s.recordings.max_length().count()}}) + "\n";
  reply(std::move(r));
  return nullptr;
}

CancelFn record_stop(const AgentServices& s, const EndpointRequest& req, ReplyFn reply) {
  auto q = query_of(req, {"id"}, reply);
  if (!q) return nullptr;
  if (req.view_only) return reply(net::json_error(403, "", req.cannot(kRecordControl))), nullptr;
  if (!req.rights.has(net::Right::kRecord)) return reply(net::json_error(403, "", no_record_right(req))), nullptr;
  if (!q->has("id")) return reply(net::json_error(400, "id", "id is required: /record/stop?id=N")), nullptr;
  uint64_t id = 0;
  net::ParamError error;
  if (!q->unsigned_integer("id", id, error)) return reply(bad_parameter(error)), nullptr;
  if (!s.recordings.stop(id, [reply](RecordOutcome o) { reply(mp4_reply(std::move(o))); }))
    return reply(net::json_error(404, "id", "no recording " + std::to_string(id) + " (unknown or already stopped)")),
           nullptr;
  // A client that leaves while its recording is finalised: nothing to undo,
  // the reply is dropped and the file closed.
  return nullptr;
}

const char* describe(input::InputStatus s) {
  switch (s) {
    case input::InputStatus::kUnknownKey: return "the desktop has no key for it";
    case input::InputStatus::kNoSpareKeycode: return "the keymap has no free key to bind it to";
    case input::InputStatus::kFailed: return "the display connection failed";
    case input::InputStatus::kOk: break;
  }
  return "failed";
}

// Everything is checked before the first event is sent, so a bad body
// changes nothing on the desktop.
CancelFn input_actions(const AgentServices& s, const EndpointRequest& req, ReplyFn reply) {
  auto q = query_of(req, {"scale", "max_width", "max_height"}, reply);
  if (!q) return nullptr;
  // Positions in a scaled picture (/screenshot?max_width=...), mapped back
  // by the same rule.
  ScaleSpec scale;
  net::ParamError scale_error;
  if (!parse_scale(*q, scale, scale_error)) return reply(bad_parameter(scale_error)), nullptr;
  if (req.view_only) return reply(net::json_error(403, "", req.cannot("send input"))), nullptr;
  input::InputInjector* injector = s.interaction ? s.interaction->injector() : nullptr;
  if (!injector) return reply(net::json_error(503, "", "this desktop takes no input")), nullptr;
  // Coordinates are the picture's, like a viewer's clicks: checked against
  // the captured area's size now and mapped as the viewers' are.
  const input::PictureMapping picture = picture_now(s);
  const Scaling scaling = Scaling::fit(picture.area, scale);
  ActionError error;
  auto actions = parse_input_actions(req.body, scaling.scaled(), s.interaction->settings().scroll_px_per_notch, error);
  if (!actions) return reply(net::json_error(400, error.parameter, error.message)), nullptr;
  remap_input_actions(*actions, [&scaling](int x, int y) { return scaling.to_full(x, y); });
  map_input_actions(*actions, picture);
  // Read before the first event: whatever the actions draw gets a later
  // seq, so /wait?change&since=seq cannot miss it.
  const uint64_t seq = s.changes.current_seq();
  const RunOutcome run = run_input_actions(*actions, *injector);
  EndpointReply r;
  r.headers = {{kSeqHeader, std::to_string(seq)}};
  if (run.status != input::InputStatus::kOk) {
    const InputAction& failed = (*actions)[run.done];
    const std::string name = failed.name.empty() ? "actions" : failed.name;
    s.log->warn("/input: {} not played: {}", name, describe(run.status));
    r.status = 500;
    r.body = json_text(nlohmann::json{{"error", name + ": " + describe(run.status)}, {"parameter", name},
                            {"seq", seq}, {"done", run.done}}) + "\n";
    return reply(std::move(r)), nullptr;
  }
  r.body = json_text(nlohmann::json{{"seq", seq}, {"actions", actions->size()}}) + "\n";
  reply(std::move(r));
  return nullptr;
}

}  // namespace

net::EndpointTable agent_endpoints(AgentServices services) {
  auto s = std::make_shared<AgentServices>(services);
  auto bind = [s](CancelFn (*f)(const AgentServices&, const EndpointRequest&, ReplyFn)) {
    return [s, f](const EndpointRequest& req, ReplyFn reply) { return f(*s, req, std::move(reply)); };
  };
  net::EndpointTable t;
  t["/screenshot"] = {{"GET"}, bind(screenshot)};
  t["/wait"] = {{"GET"}, bind(wait)};
  t["/record"] = {{"GET"}, bind(record)};
  t["/record"].audit_reads = true;
  t["/record/start"] = {{"POST"}, bind(record_start)};
  t["/record/stop"] = {{"POST"}, bind(record_stop)};
  t["/input"] = {{"POST"}, bind(input_actions)};
  return t;
}

}  // namespace voxl::endpoints
