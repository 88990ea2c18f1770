#include "endpoints/mcp_endpoint.h"

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "base/base64.h"
#include "base/json_text.h"
#include "endpoints/mcp_protocol.h"
#include "platform/owned_file.h"

namespace voxl::endpoints {

using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::ReplyFn;

namespace {

struct Context {
  ComputerUse& computer;
  RecordService& recordings;
  std::string version;
  A11yTools a11y;
};

// The answers of one POST, sent together when the last is ready.
struct Exchange {
  ReplyFn reply;
  bool batch = false;
  std::vector<json> answers;
  size_t pending = 0;
  std::vector<std::function<void()>> cancels;
  bool done = false;

  void add(json answer) {
    answers.push_back(std::move(answer));
    if (--pending == 0) send();
  }
  void send() {
    if (done) return;
    done = true;
    EndpointReply r;
    if (answers.empty()) {
      // Notifications and responses only: accepted, nothing to say.
      r.status = 202;
    } else {
      r.body = json_text(batch ? json(answers) : answers.front()) + "\n";
    }
    reply(std::move(r));
  }
};

json text_content(const std::string& text) { return {{"type", "text"}, {"text", text}}; }

json tool_error(const std::string& message) {
  return {{"content", json::array({text_content(message)})}, {"isError", true}};
}

json action_result(ComputerOutcome o) {
  if (o.status != 200) return tool_error(o.error);
  json content = json::array({text_content(json_text(o.info))});
  if (!o.png.empty())
    content.push_back({{"type", "image"}, {"mimeType", "image/png"}, {"data", base64_encode(o.png)}});
  return {{"content", std::move(content)}};
}

// An accessibility answer (the HTTP reply's JSON) as a tool's result: the
// JSON as text, a settled screenshot as an image beside it.
json a11y_result(const EndpointReply& r) {
  json body = json::parse(r.body, nullptr, false);
  if (r.status != 200)
    return tool_error(body.is_object() && body.contains("error") && body["error"].is_string()
                          ? body["error"].get<std::string>()
                          : "the accessibility tree is not available (" + std::to_string(r.status) + ")");
  json content = json::array();
  std::string png;
  if (body.is_object() && body.contains("screenshot") && body["screenshot"].is_object() &&
      body["screenshot"].contains("data") && body["screenshot"]["data"].is_string()) {
    png = body["screenshot"]["data"].get<std::string>();
    body["screenshot"].erase("data");
  }
  content.push_back(text_content(json_text(body)));
  if (!png.empty()) content.push_back({{"type", "image"}, {"mimeType", "image/png"}, {"data", std::move(png)}});
  return {{"content", std::move(content)}};
}

// The MP4 of a finished recording, inline.
json recording_result(uint64_t id, RecordOutcome o) {
  if (o.status != 200) return tool_error(o.error);
  json info = {{"id", id}, {"frames", o.frames}, {"seconds", o.seconds}, {"ended", o.ended}};
  std::string mp4;
  std::string why;
  for (uint64_t offset = 0;;) {
    if (offset >= kMaxMcpRecordingBytes)
      return tool_error("the recording is larger than " + std::to_string(kMaxMcpRecordingBytes >> 20) +
                        " MiB; fetch long recordings with POST /record/stop instead");
    char buf[64 * 1024];
    size_t got = 0;
    if (!platform::read_at(o.file->get(), buf, sizeof buf, offset, got, why))
      return tool_error("the recording could not be read: " + why);
    mp4.append(buf, got);
    offset += got;
    if (got < sizeof buf) break;
  }
  return {{"content",
           json::array({text_content(json_text(info)),
                        {{"type", "resource"},
                         {"resource",
                          {{"uri", "voxl://recordings/" + std::to_string(id) + ".mp4"},
                           {"mimeType", "video/mp4"},
                           {"blob", base64_encode(mp4)}}}}})}};
}

// A wait_for_settle / wait_for_change, then (when asked) a screenshot.
std::function<void()> run_wait(Context& c, const mcp::ToolPlan& plan, bool view_only,
                               std::function<void(json)> answer) {
  const AgentServices& s = c.computer.services();
  const uint64_t seq = s.changes.current_seq();
  WaitSpec w;
  w.change = plan.change;
  w.idle = plan.idle;
  w.timeout = plan.timeout;
  if (plan.since) {
    if (*plan.since > seq) {
      answer(tool_error("since is ahead of the current seq " + std::to_string(seq)));
      return nullptr;
    }
    w.since = plan.since;
  }
  const input::PictureMapping picture = picture_now(s);
  if (plan.region) {
    const Scaling scaling = Scaling::fit(picture.area, plan.options.scale);
    w.region = picture.to_desktop(scaling.to_full(*plan.region));
  } else if (!s.whole_screen && picture.known()) {
    w.region = picture.desktop_area();
  }
  auto cancel_shot = std::make_shared<std::function<void()>>();
  auto gone = std::make_shared<bool>(false);
  ComputerOptions options = plan.options;
  options.view_only = view_only;
  const uint64_t id = s.changes.start_wait(
      w, [&c, options, answer, cancel_shot, gone](const WaitOutcome& o) {
        if (*gone) return;
        json info = {{"changed", o.changed}, {"timed_out", o.timed_out}, {"seq", o.seq}, {"waited_ms", o.waited_ms}};
        if (!options.screenshot) return answer({{"content", json::array({text_content(json_text(info))})}});
        *cancel_shot = c.computer.run(R"({"action":"screenshot"})", options, [answer, info](ComputerOutcome shot) {
          json r = action_result(std::move(shot));
          if (!r.contains("isError")) r["content"][0] = text_content(json_text(info));
          answer(std::move(r));
        });
      });
  if (id == 0) {
    answer(tool_error("too many waiters at once"));
    return nullptr;
  }
  return [&changes = s.changes, id, cancel_shot, gone] {
    *gone = true;
    changes.cancel(id);
    if (*cancel_shot) (*cancel_shot)();
  };
}

std::function<void()> call_tool(Context& c, const json& params, const EndpointRequest& req,
                                std::function<void(json)> answer, const json& id) {
  const bool view_only = req.view_only;
  if (!params.contains("name") || !params["name"].is_string()) {
    answer(mcp::error(id, mcp::kInvalidParams, "tools/call needs the tool's name"));
    return nullptr;
  }
  const std::string name = params["name"].get<std::string>();
  const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
  net::ParamError error;
  auto plan = mcp::plan_tool(name, arguments, c.computer.services().max_wait, error);
  if (!plan) {
    if (error.parameter == "name") {
      answer(mcp::error(id, mcp::kInvalidParams, error.message));
      return nullptr;
    }
    answer(mcp::result(id, tool_error(error.parameter + " " + error.message)));
    return nullptr;
  }
  const auto reply = [answer, id](json r) { answer(mcp::result(id, std::move(r))); };
  switch (plan->kind) {
    case mcp::ToolPlan::Kind::kAction: {
      plan->options.view_only = view_only;
      plan->options.user = req.user;
      return c.computer.run(plan->body, plan->options, [reply](ComputerOutcome o) { reply(action_result(std::move(o))); });
    }
    case mcp::ToolPlan::Kind::kWait:
      return run_wait(c, *plan, view_only, reply);
    case mcp::ToolPlan::Kind::kCursor: {
      std::string why;
      auto where = c.computer.cursor(plan->options.scale, why);
      reply(where ? json{{"content", json::array({text_content(json_text(*where))})}} : tool_error(why));
      return nullptr;
    }
    case mcp::ToolPlan::Kind::kA11yTree:
      return c.a11y.tree(*plan->a11y_tree, [reply](EndpointReply r) { reply(a11y_result(r)); });
    case mcp::ToolPlan::Kind::kA11yFind:
      return c.a11y.find(*plan->a11y_find, [reply](EndpointReply r) { reply(a11y_result(r)); });
    case mcp::ToolPlan::Kind::kA11yAct:
      plan->options.view_only = view_only;
      plan->options.user = req.user;
      return c.a11y.act(std::move(*plan->a11y_act), plan->options,
                        [reply](EndpointReply r) { reply(a11y_result(r)); });
    case mcp::ToolPlan::Kind::kRecordStart:
    case mcp::ToolPlan::Kind::kRecordStop:
      break;
  }
  // Recordings take slots and disk that every client shares.
  if (view_only) return reply(tool_error(req.cannot("start or stop recordings"))), nullptr;
  if (!req.rights.has(net::Right::kRecord))
    return reply(tool_error(req.user + " may not record (the users file grants no 'record')")), nullptr;
  if (plan->kind == mcp::ToolPlan::Kind::kRecordStart) {
    RecordRefusal why;
    const uint64_t rec = c.recordings.start(why);
    if (rec == 0) return reply(tool_error(why.error)), nullptr;
    reply({{"content", json::array({text_content(json_text(
                           {{"id", rec}, {"max_seconds", c.recordings.max_length().count()}}))})}});
    return nullptr;
  }
  const uint64_t rec = plan->record_id;
  auto gone = std::make_shared<bool>(false);
  if (!c.recordings.stop(rec, [reply, rec, gone](RecordOutcome o) {
        if (!*gone) reply(recording_result(rec, std::move(o)));
      }))
    return reply(tool_error("no recording " + std::to_string(rec) + " (unknown or already stopped)")), nullptr;
  return [gone] { *gone = true; };
}

CancelFn handle(Context& c, EndpointRequest& req, ReplyFn reply) {
  // The transport's rule against DNS rebinding and foreign pages (a browser
  // page of another site gets nothing here) is the server's: the Host
  // allow-list and the cross-site rule for POSTs, before this handler.
  for (const auto& [name, value] : req.headers)
    if (name == "mcp-protocol-version" && !mcp::supported_version(value))
      return reply(net::json_error(400, "MCP-Protocol-Version",
                                   "MCP-Protocol-Version " + value.substr(0, 32) + " is not spoken here (" +
                                       mcp::kProtocolVersions[0] + " is)")),
             nullptr;
  mcp::Parsed parsed = mcp::parse_body(req.body);
  if (parsed.error) {
    EndpointReply r;
    r.status = 400;
    r.body = json_text(*parsed.error) + "\n";
    return reply(std::move(r)), nullptr;
  }
  auto x = std::make_shared<Exchange>();
  x->reply = std::move(reply);
  x->batch = parsed.batch;
  x->answers = std::move(parsed.errors);
  for (const auto& m : parsed.messages)
    if (m.kind == mcp::Message::Kind::kRequest) ++x->pending;
  if (x->pending == 0) {
    x->send();
    return nullptr;
  }
  for (const auto& m : parsed.messages) {
    if (m.kind != mcp::Message::Kind::kRequest) continue;
    // Answers may come later (a settle, a screenshot); they are sent when
    // all of this POST's are in, unless the client left.
    auto answer = [x](json a) {
      if (!x->done) x->add(std::move(a));
    };
    if (m.method == "initialize") {
      const std::string asked = m.params.contains("protocolVersion") && m.params["protocolVersion"].is_string()
                                    ? m.params["protocolVersion"].get<std::string>()
                                    : "";
      answer(mcp::result(m.id, mcp::initialize_result(asked, c.version)));
    } else if (m.method == "ping") {
      answer(mcp::result(m.id, json::object()));
    } else if (m.method == "tools/list") {
      answer(mcp::result(m.id, mcp::tools_list()));
    } else if (m.method == "tools/call") {
      if (auto cancel = call_tool(c, m.params, req, answer, m.id))
        x->cancels.push_back(std::move(cancel));
    } else {
      answer(mcp::error(m.id, mcp::kMethodNotFound, "no method '" + m.method.substr(0, 64) + "' here"));
    }
  }
  return [x] {
    x->done = true;
    for (auto& cancel : x->cancels) cancel();
  };
}

}  // namespace

net::EndpointTable mcp_endpoints(ComputerUse& computer, RecordService& recordings, std::string server_version,
                                 A11yTools a11y) {
  auto c = std::make_shared<Context>(Context{computer, recordings, std::move(server_version), std::move(a11y)});
  net::EndpointTable t;
  // Only POST: the transport lets a server offer no stream (GET is then
  // 405, which the server's method check answers).
  t["/mcp"] = {{"POST"}, [c](EndpointRequest& req, ReplyFn reply) { return handle(*c, req, std::move(reply)); },
               256 * 1024};
  return t;
}

}  // namespace voxl::endpoints
